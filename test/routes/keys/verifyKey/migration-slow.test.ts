/**
 * Verifying keys imported under bcrypt, scrypt and argon2id migrations: found by their lookup
 * token through `migrationId`, their secret checked in the worker pool, then rehashed to SHA-256
 * so they verify like any key (and never touch the pool again).
 */
import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { createMigration, slowKey } from '../../../support/migrations.js';
import type { SlowAlgorithm } from '../../../../src/keys/migration-slow.js';

describe('keys.verifyKey → slow-hash migrated keys', () => {
  const h = useHarness();
  const completed = (): number => h.keygate.services.hashPool.stats().completed;

  async function imported(algorithm: SlowAlgorithm, settings: Record<string, unknown> = {}) {
    const apiId = await h.createApi();
    const migrationId = await createMigration(h, algorithm);
    const k = slowKey(algorithm);
    const res = await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: k.imported, meta: { from: algorithm }, ...settings }] });
    return { ...k, apiId, migrationId, keyId: res.body.data.migrated[0].keyId as string };
  }

  for (const algorithm of ['bcrypt', 'scrypt', 'argon2id'] as const) {
    test(`${algorithm}: NOT_FOUND without the migration; VALID with it (in the pool); then VALID without it, off the pool`, async () => {
      const k = await imported(algorithm);
      expect((await h.verify(k.plaintext)).body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
      const before = completed();
      const first = (await h.verify(k.plaintext, { migrationId: k.migrationId })).body.data;
      expect(first).toMatchObject({ valid: true, code: 'VALID', keyId: k.keyId, meta: { from: algorithm } });
      expect(completed()).toBe(before + 1);
      expect((await h.call('keys.getKey', { keyId: k.keyId })).body.data.start).toBe(k.start);
      expect((await h.verify(k.plaintext)).body.data).toMatchObject({ valid: true, keyId: k.keyId });
      expect((await h.verify(k.plaintext, { migrationId: k.migrationId })).body.data).toMatchObject({ valid: true, keyId: k.keyId });
      expect((await h.call('keys.whoami', { key: k.plaintext })).body.data.keyId).toBe(k.keyId);
      // Rehashed: later verifications are ordinary lookups.
      expect(completed()).toBe(before + 1);
    });

    test(`${algorithm}: a wrong secret with the right lookup token is NOT_FOUND and rehashes nothing`, async () => {
      const k = await imported(algorithm);
      expect((await h.verify(k.wrongSecret, { migrationId: k.migrationId })).body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
      expect((await h.call('keys.getKey', { keyId: k.keyId })).body.data.start).toBe('');
      expect((await h.verify(k.wrongSecret)).body.data.code).toBe('NOT_FOUND');
      // The right key still completes its migration afterwards.
      expect((await h.verify(k.plaintext, { migrationId: k.migrationId })).body.data.code).toBe('VALID');
      expect((await h.verify(k.wrongSecret, { migrationId: k.migrationId })).body.data.code).toBe('NOT_FOUND');
    });
  }

  test('a wrong secret on a disabled key says NOT_FOUND, not DISABLED', async () => {
    const k = await imported('bcrypt', { enabled: false });
    expect((await h.verify(k.wrongSecret, { migrationId: k.migrationId })).body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
    expect((await h.verify(k.plaintext, { migrationId: k.migrationId })).body.data).toMatchObject({ valid: false, code: 'DISABLED' });
  });

  test('another migration, an unknown one, or a root key that may not verify it: NOT_FOUND, no hash computed', async () => {
    const k = await imported('argon2id');
    const before = completed();
    const other = await createMigration(h, 'argon2id');
    expect((await h.verify(k.plaintext, { migrationId: other })).body.data.code).toBe('NOT_FOUND');
    expect((await h.verify(k.plaintext, { migrationId: 'mig_unknown' })).body.data.code).toBe('NOT_FOUND');
    const elsewhere = await h.rootKey(['api.api_elsewhere.verify_key']);
    const res = await h.call('keys.verifyKey', { key: k.plaintext, migrationId: k.migrationId }, { rootKey: elsewhere });
    expect(res.body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
    expect(completed()).toBe(before);
    expect((await h.call('keys.getKey', { keyId: k.keyId })).body.data.start).toBe('');
  });

  test('concurrent first verifications all succeed and rehash once; wrong secrets among them stay NOT_FOUND', async () => {
    const k = await imported('bcrypt', { credits: { remaining: 100 } });
    const calls = Array.from({ length: 8 }, (_, i) => h.verify(i % 4 === 3 ? k.wrongSecret : k.plaintext, { migrationId: k.migrationId }));
    const results = await Promise.all(calls);
    results.forEach((r, i) => {
      if (i % 4 === 3) expect(r.body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
      else expect(r.body.data).toMatchObject({ valid: true, keyId: k.keyId });
    });
    // Six valid verifications spent one credit each, the two refused ones none.
    expect((await h.verify(k.plaintext)).body.data).toMatchObject({ valid: true, credits: 93 });
  });

  test('a key that is not <prefix>_<lookup>_<secret> is a 400', async () => {
    const k = await imported('scrypt');
    const res = await h.call('keys.verifyKey', { key: 'no-underscores-here', migrationId: k.migrationId });
    expectError(res, 400, 'unkey/authentication/malformed');
  });
});
