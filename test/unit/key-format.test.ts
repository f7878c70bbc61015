import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKey, generateRootKey, hashKey, ROOT_KEY_PREFIX } from '../../src/keys/format.js';
import { base58 } from '../../src/util/base58.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const sha256b64 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64');

/** Independent reference decoder (BigInt) for round-trip checks. */
function decode58(text: string): Uint8Array {
  let n = 0n;
  for (const ch of text) {
    const digit = ALPHABET.indexOf(ch);
    if (digit < 0) throw new Error(`bad char ${ch}`);
    n = n * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n % 256n));
    n /= 256n;
  }
  let zeros = 0;
  while (text[zeros] === '1') zeros++;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes]);
}

describe('base58 (Bitcoin alphabet)', () => {
  it('encodes known vectors', () => {
    expect(base58(new Uint8Array([]))).toBe('');
    expect(base58(new Uint8Array([0]))).toBe('1');
    expect(base58(new Uint8Array([0, 0, 1]))).toBe('112');
    expect(base58(new Uint8Array([57]))).toBe('z');
    expect(base58(new Uint8Array([58]))).toBe('21');
    expect(base58(new Uint8Array([255]))).toBe('5Q');
    expect(base58(Buffer.from('Hello World!', 'utf8'))).toBe('2NEpo7TZRRrLZSi2U');
    expect(base58(Buffer.from('The quick brown fox jumps over the lazy dog', 'utf8')))
      .toBe('7DdiPPYtxLjCD3wA1po2rvZHTDYjkZYiEtazrfiwJcwnKCizhGFhBGHeRdx');
    expect(base58(Buffer.from('0000287fb4cd', 'hex'))).toBe('11233QC4');
  });

  it('round-trips random bytes, keeping leading zero bytes as leading 1s', () => {
    for (let len = 0; len < 70; len++) {
      for (let i = 0; i < 5; i++) {
        const bytes = new Uint8Array(len).map(() => Math.floor(Math.random() * 256));
        if (i === 0 && len > 2) bytes[0] = bytes[1] = 0;
        const text = base58(bytes);
        if (len > 0) expect(text).toMatch(BASE58);
        expect(Buffer.from(decode58(text)).equals(Buffer.from(bytes)), `bytes ${Buffer.from(bytes).toString('hex')} → ${text}`).toBe(true);
      }
    }
  });
});

describe('key material', () => {
  it('hashKey is base64 (standard, padded) SHA-256 of the whole string', () => {
    // SHA-256('') = e3b0c442…b855
    expect(hashKey('')).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    expect(hashKey('prod_3ZxKabc')).toBe(sha256b64('prod_3ZxKabc'));
    expect(hashKey('ключ_€')).toBe(sha256b64('ключ_€'));
  });

  it('generateKey with a prefix: prefix_ + base58, start = prefix_ + 4 chars, hash of the whole key', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const key = generateKey('prod', 16);
      expect(key.plaintext.startsWith('prod_')).toBe(true);
      const random = key.plaintext.slice('prod_'.length);
      expect(random).toMatch(BASE58);
      expect(decode58(random).length).toBe(16);
      expect(key.start).toBe(`prod_${random.slice(0, 4)}`);
      expect(key.hash).toBe(sha256b64(key.plaintext));
      expect(key.hash).toHaveLength(44);
      expect(key.hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      seen.add(key.plaintext);
    }
    expect(seen.size).toBe(50);
  });

  it('generateKey honours byteLength', () => {
    for (const n of [16, 32, 255]) {
      const key = generateKey('x', n);
      expect(decode58(key.plaintext.slice(2)).length).toBe(n);
    }
  });

  it('generateKey without a prefix: plain base58, start = first 4 chars', () => {
    const key = generateKey(undefined, 16);
    expect(key.plaintext).toMatch(BASE58);
    expect(key.plaintext).not.toContain('_');
    expect(key.start).toBe(key.plaintext.slice(0, 4));
    expect(key.start).toHaveLength(4);
    expect(key.hash).toBe(sha256b64(key.plaintext));
  });

  it('generateRootKey: kgroot_ + 32 random bytes, hashed the same way', () => {
    expect(ROOT_KEY_PREFIX).toBe('kgroot');
    const key = generateRootKey();
    expect(key.plaintext.startsWith('kgroot_')).toBe(true);
    const random = key.plaintext.slice('kgroot_'.length);
    expect(random).toMatch(BASE58);
    expect(decode58(random).length).toBe(32);
    expect(key.start).toBe(`kgroot_${random.slice(0, 4)}`);
    expect(key.hash).toBe(sha256b64(key.plaintext));
    expect(generateRootKey().plaintext).not.toBe(key.plaintext);
  });
});
