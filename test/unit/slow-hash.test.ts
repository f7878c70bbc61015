/**
 * The slow-hash encodings migrateKeys accepts (src/keys/migration-slow.ts) and the worker task
 * that checks a secret against them (src/workers/tasks.ts), run in this thread: no pool here.
 */
import { scryptSync } from 'node:crypto';
import { hashSync as argon2Hash } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { isSlowHash, parseScrypt, parseSlowImport, SLOW_ALGORITHMS } from '../../src/keys/migration-slow.js';
import { importedHash, pendingLookupHash, slowHashedSecret } from '../../src/keys/migration.js';
import { verifySecret } from '../../src/workers/tasks.js';
import { slowHash } from '../support/migrations.js';

// RFC 7914 §12, third vector: scrypt("password", "NaCl", N=1024, r=8, p=16, dkLen=64).
const RFC7914 = '$scrypt$ln=10,r=8,p=16$' + Buffer.from('NaCl').toString('base64') + '$' + Buffer.from(
  'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640',
  'hex').toString('base64');
// crypt_blowfish's (Openwall) test vector for "U*U" at cost 5.
const OPENWALL_BCRYPT = '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW';

describe('slow-hash secrets (worker task, in-thread)', () => {
  it('published vectors verify, and nothing else does', () => {
    expect(verifySecret({ algorithm: 'scrypt', encoded: RFC7914, secret: 'password' })).toBe(true);
    expect(verifySecret({ algorithm: 'scrypt', encoded: RFC7914, secret: 'Password' })).toBe(false);
    expect(verifySecret({ algorithm: 'bcrypt', encoded: OPENWALL_BCRYPT, secret: 'U*U' })).toBe(true);
    expect(verifySecret({ algorithm: 'bcrypt', encoded: OPENWALL_BCRYPT, secret: 'U*V' })).toBe(false);
  });

  it.each(SLOW_ALGORITHMS)('%s: a hash made by the source library verifies its secret only', (algorithm) => {
    const encoded = slowHash(algorithm, 'the-secret');
    expect(isSlowHash(algorithm, encoded)).toBe(true);
    expect(verifySecret({ algorithm, encoded, secret: 'the-secret' })).toBe(true);
    expect(verifySecret({ algorithm, encoded, secret: 'the-secreT' })).toBe(false);
    expect(verifySecret({ algorithm, encoded, secret: '' })).toBe(false);
  });

  it('bcrypt $2a$, $2b$ and $2y$ are the same hash; argon2id and scrypt keep their own parameters', () => {
    const b = bcrypt.hashSync('s3cret', 4);
    for (const minor of ['a', 'b', 'y']) {
      const encoded = b.replace(/^\$2[aby]\$/, `$2${minor}$`);
      expect(isSlowHash('bcrypt', encoded)).toBe(true);
      expect(verifySecret({ algorithm: 'bcrypt', encoded, secret: 's3cret' })).toBe(true);
    }
    const a = argon2Hash('s3cret', { memoryCost: 2048, timeCost: 2, parallelism: 2 });
    expect(a).toMatch(/^\$argon2id\$v=19\$m=2048,t=2,p=2\$/);
    expect(verifySecret({ algorithm: 'argon2id', encoded: a, secret: 's3cret' })).toBe(true);
    const salt = Buffer.from('0123456789abcdef');
    const s = `$scrypt$ln=4,r=2,p=3$${salt.toString('base64')}$${scryptSync('s3cret', salt, 20, { N: 16, r: 2, p: 3 }).toString('base64')}`;
    expect(parseScrypt(s)).toMatchObject({ N: 16, r: 2, p: 3 });
    expect(parseScrypt(s)!.hash).toHaveLength(20);
    expect(verifySecret({ algorithm: 'scrypt', encoded: s, secret: 's3cret' })).toBe(true);
    // Unpadded base64 (the PHC format's form) reads the same.
    const unpadded = RFC7914.replace(/=+(\$|$)/g, '$1');
    expect(unpadded).toMatch(/^\$scrypt\$ln=10,r=8,p=16\$TmFDbA\$[^=]+$/);
    expect(verifySecret({ algorithm: 'scrypt', encoded: unpadded, secret: 'password' })).toBe(true);
  });
});

describe('slow-hash encodings refused at import', () => {
  const bcrypt4 = bcrypt.hashSync('x', 4);
  const argon = argon2Hash('x', { memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const refused: [string, 'bcrypt' | 'scrypt' | 'argon2id', string][] = [
    ['bcrypt with cost 17 (beyond the limit)', 'bcrypt', bcrypt4.replace('$04$', '$17$')],
    ['bcrypt with cost 3', 'bcrypt', bcrypt4.replace('$04$', '$03$')],
    ['bcrypt cut short', 'bcrypt', bcrypt4.slice(0, -1)],
    ['bcrypt $2x$', 'bcrypt', bcrypt4.replace('$2b$', '$2x$')],
    ['argon2i', 'argon2id', argon.replace('$argon2id$', '$argon2i$')],
    ['argon2id version 16', 'argon2id', argon.replace('v=19', 'v=16')],
    ['argon2id with 512 MiB', 'argon2id', argon.replace('m=1024', 'm=524288')],
    ['argon2id with fewer than 8 KiB per lane', 'argon2id', argon.replace('m=1024,t=1,p=1', 'm=16,t=1,p=4')],
    ['argon2id with a 4-byte salt', 'argon2id', argon.replace(/\$[^$]+\$([^$]+)$/, '$AAAAAA$$1')],
    ['scrypt with N·r over 256 MiB', 'scrypt', RFC7914.replace('ln=10,r=8', 'ln=20,r=8')],
    ['scrypt with p=0', 'scrypt', RFC7914.replace('p=16', 'p=0')],
    ['scrypt with an 8-byte hash', 'scrypt', RFC7914.replace(/\$[^$]+$/, '$AAAAAAAAAAA')],
    ['scrypt with a character outside base64', 'scrypt', RFC7914.replace('$TmFDbA', '$TmF*bA')],
    ['a bcrypt hash under scrypt', 'scrypt', bcrypt4],
  ];
  it.each(refused)('%s', (_name, algorithm, encoded) => {
    expect(isSlowHash(algorithm, encoded)).toBe(false);
    expect(parseSlowImport(algorithm, `lookup:${encoded}`)).toBeNull();
  });

  it('the lookup token is required, without `_` or `:`; the hash part is taken whole', () => {
    expect(parseSlowImport('bcrypt', `ab12-x.y:${bcrypt4}`)).toEqual({ lookup: 'ab12-x.y', encoded: bcrypt4 });
    for (const lookup of ['', 'a_b', 'a b', 'x'.repeat(129)]) expect(parseSlowImport('bcrypt', `${lookup}:${bcrypt4}`)).toBeNull();
    expect(parseSlowImport('bcrypt', bcrypt4)).toBeNull();
  });
});

describe('slow-hash lookups', () => {
  const plaintext = 'my_co_lookup1_s3cr3t';
  it('the key is stored and found under its migration and lookup token; the hash covers the secret', () => {
    const encoded = slowHash('bcrypt', 's3cr3t');
    const a = { id: 'mig_a', algorithm: 'bcrypt' as const };
    const stored = importedHash(a, `lookup1:${encoded}`);
    expect(stored).toEqual({ hash: pendingLookupHash(a, plaintext), slowHash: encoded });
    expect(stored!.hash).toMatch(/^[0-9a-f]{64}$/);
    // The same lookup token under another migration is another entry.
    expect(pendingLookupHash({ id: 'mig_b', algorithm: 'bcrypt' }, plaintext)).not.toBe(stored!.hash);
    expect(slowHashedSecret(plaintext)).toBe('s3cr3t');
    expect(importedHash(a, encoded)).toBeNull();
  });
});
