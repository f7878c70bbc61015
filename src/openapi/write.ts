/** `npm run openapi [-- <file>]`: writes the OpenAPI document to docs/openapi.json, or to <file>. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DOCUMENT_FILE, documentText } from './file.js';

const target = process.argv[2] === undefined ? DOCUMENT_FILE : resolve(process.argv[2]);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, documentText());
console.log(`wrote ${target}`);
