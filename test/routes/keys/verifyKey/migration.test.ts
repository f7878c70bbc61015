/**
 * Verifying keys imported by keys.migrateKeys under a prefixed-api-key migration: they are found
 * only through `migrationId` until their first verification, which rehashes them for good.
 */
import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { createMigration, prefixedKey } from '../../../support/migrations.js';

describe('keys.verifyKey → migrated keys (migrationId)', () => {
  const h = useHarness();

  async function imported(prefix = 'acme') {
    const apiId = await h.createApi();
    const migrationId = await createMigration(h, 'github.com/seamapi/prefixed-api-key');
    const k = prefixedKey(prefix);
    const res = await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: k.longTokenHash, meta: { from: 'seam' } }] });
    return { ...k, apiId, migrationId, keyId: res.body.data.migrated[0].keyId as string };
  }

  test('NOT_FOUND without the migration; VALID with it; afterwards VALID without it', async () => {
    const k = await imported();
    expect((await h.verify(k.plaintext)).body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
    const first = (await h.verify(k.plaintext, { migrationId: k.migrationId })).body.data;
    expect(first).toMatchObject({ valid: true, code: 'VALID', keyId: k.keyId, meta: { from: 'seam' } });
    expect((await h.verify(k.plaintext)).body.data).toMatchObject({ valid: true, keyId: k.keyId });
    expect((await h.call('keys.getKey', { keyId: k.keyId })).body.data.start).toBe(k.start);
    // whoami finds it by its new hash too.
    expect((await h.call('keys.whoami', { key: k.plaintext })).body.data.keyId).toBe(k.keyId);
  });

  test('prefixes with underscores keep everything before the two tokens', async () => {
    const k = await imported('my_company');
    expect((await h.verify(k.plaintext, { migrationId: k.migrationId })).body.data.code).toBe('VALID');
    expect((await h.call('keys.getKey', { keyId: k.keyId })).body.data.start).toBe(k.start);
  });

  test('another migration, an unknown one, or a wrong long token is NOT_FOUND', async () => {
    const k = await imported();
    const other = await createMigration(h, 'github.com/seamapi/prefixed-api-key');
    expect((await h.verify(k.plaintext, { migrationId: other })).body.data.code).toBe('NOT_FOUND');
    expect((await h.verify(k.plaintext, { migrationId: 'mig_unknown' })).body.data.code).toBe('NOT_FOUND');
    expect((await h.verify(`${k.plaintext}0`, { migrationId: k.migrationId })).body.data.code).toBe('NOT_FOUND');
    // None of those completed the migration.
    expect((await h.call('keys.getKey', { keyId: k.keyId })).body.data.start).toBe('');
  });

  test('a root key that may not verify the key does not complete its migration', async () => {
    const k = await imported();
    const elsewhere = await h.rootKey(['api.api_elsewhere.verify_key']);
    const res = await h.call('keys.verifyKey', { key: k.plaintext, migrationId: k.migrationId }, { rootKey: elsewhere });
    expect(res.body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
    expect((await h.verify(k.plaintext)).body.data.code).toBe('NOT_FOUND');
  });

  test('concurrent first verifications all succeed and rehash once', async () => {
    // Several keys: a verification that looks the key up just as another one rehashes it must
    // still find it, and that window is narrow.
    for (let round = 0; round < 8; round++) {
      const k = await imported();
      const results = await Promise.all(Array.from({ length: 25 }, () => h.verify(k.plaintext, { migrationId: k.migrationId })));
      for (const r of results) expect(r.body.data).toMatchObject({ valid: true, keyId: k.keyId });
      expect((await h.verify(k.plaintext)).body.data.valid).toBe(true);
    }
  });

  test('a key that cannot be of the migration\'s format is a 400', async () => {
    const k = await imported();
    const res = await h.call('keys.verifyKey', { key: 'no-underscores-here', migrationId: k.migrationId });
    expectError(res, 400, 'unkey/authentication/malformed');
    expect(res.body.error.detail).toBe('Invalid key format.');
  });
});
