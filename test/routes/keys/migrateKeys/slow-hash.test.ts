/**
 * keys.migrateKeys under bcrypt, scrypt and argon2id migrations: `hash` is
 * `<lookup>:<encoded slow hash>`, checked before anything is imported.
 */
import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { createMigration, prefixedKey, slowHash, slowKey } from '../../../support/migrations.js';

describe('keys.migrateKeys → slow-hash migrations', () => {
  const h = useHarness();

  for (const algorithm of ['bcrypt', 'scrypt', 'argon2id'] as const) {
    test(`${algorithm}: <lookup>:<hash> imports a key waiting for its first verification`, async () => {
      const apiId = await h.createApi();
      const migrationId = await createMigration(h, algorithm);
      const k = slowKey(algorithm);
      const res = await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: k.imported, name: 'slow' }] });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ migrated: [{ hash: k.imported, keyId: expect.stringMatching(/^key_/) }], failed: [] });
      const key = (await h.call('keys.getKey', { keyId: res.body.data.migrated[0].keyId })).body.data;
      expect(key).toMatchObject({ name: 'slow', start: '' });
      // The source system's hash is never shown back.
      expect(JSON.stringify(key)).not.toContain(k.imported.slice(k.lookup.length + 1));
    });
  }

  test('a malformed hash refuses the whole request, naming the expected form', async () => {
    const apiId = await h.createApi();
    const migrationId = await createMigration(h, 'bcrypt');
    const good = slowKey('bcrypt');
    const bcrypt = slowHash('bcrypt', 'secret');
    for (const hash of [bcrypt, `a_b:${bcrypt}`, `:${bcrypt}`, `lk:${slowHash('argon2id', 'secret')}`, `lk:${bcrypt.replace('$04$', '$17$')}`, prefixedKey().longTokenHash]) {
      const res = await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: good.imported }, { hash }] });
      expectError(res, 400, 'unkey/application/invalid_input');
      expect(res.body.error.detail).toContain('keys[1].hash is not a bcrypt hash');
      expect(res.body.error.detail).toContain('<lookup>:$2b$');
    }
    // Nothing was imported, not even the valid first key: it can still be imported once.
    const again = await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: good.imported }] });
    expect(again.body.data.migrated).toHaveLength(1);
  });

  test('a lookup token already imported under the migration, or repeated, is listed as failed', async () => {
    const apiId = await h.createApi();
    const migrationId = await createMigration(h, 'scrypt');
    const first = slowKey('scrypt');
    await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: first.imported }] });
    const fresh = slowKey('scrypt');
    // Same lookup token, another hash: the lookup is what must be unique.
    const sameLookup = `${fresh.lookup}:${slowHash('scrypt', 'other')}`;
    const res = await h.call('keys.migrateKeys', {
      migrationId, apiId, keys: [{ hash: first.imported }, { hash: fresh.imported }, { hash: sameLookup }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.migrated).toEqual([{ hash: fresh.imported, keyId: expect.stringMatching(/^key_/) }]);
    expect(res.body.data.failed).toEqual([first.imported, sameLookup]);
    // Another migration keeps its own lookup tokens: the same one imports there.
    const other = await createMigration(h, 'scrypt');
    const elsewhere = await h.call('keys.migrateKeys', { migrationId: other, apiId, keys: [{ hash: first.imported }] });
    expect(elsewhere.body.data.migrated).toHaveLength(1);
  });
});
