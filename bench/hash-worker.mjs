// piscina task for bench/hashing.ts: base64 SHA-256 of one key or of a batch of keys.
import { hash } from 'node:crypto';
const h = (k) => hash('sha256', k, 'base64');
export default (k) => (Array.isArray(k) ? k.map(h) : h(k));
