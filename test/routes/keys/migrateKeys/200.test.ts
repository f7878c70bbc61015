import { describe, expect, test } from 'vitest';
import { hashKey } from '../../../../src/keys/format.js';
import { useHarness } from '../../../support/harness.js';
import { createMigration, foreignKey, prefixedKey } from '../../../support/migrations.js';

describe('keys.migrateKeys → 200', () => {
  const h = useHarness();

  test('sha256 hashes (base64 or hex) import keys that then verify like any key', async () => {
    const apiId = await h.createApi();
    const migrationId = await createMigration(h, 'sha256');
    const a = foreignKey('sk_live');
    const b = foreignKey();
    const res = await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: a.base64 }, { hash: b.hex, name: 'from hex' }] });
    expect(res.status).toBe(200);
    expect(res.body.data.failed).toEqual([]);
    expect(res.body.data.migrated.map((m: any) => m.hash)).toEqual([a.base64, b.hex]);
    const [idA, idB] = res.body.data.migrated.map((m: any) => m.keyId);
    expect(idA).toMatch(/^key_/);

    // Not yet seen: no display start.
    expect((await h.call('keys.getKey', { keyId: idA })).body.data.start).toBe('');
    expect((await h.verify(a.plaintext)).body.data).toMatchObject({ valid: true, code: 'VALID', keyId: idA });
    expect((await h.verify(b.plaintext)).body.data).toMatchObject({ valid: true, keyId: idB, name: 'from hex' });
    // Its first verification sets start from the plaintext.
    expect((await h.call('keys.getKey', { keyId: idA })).body.data.start).toBe(`sk_live_${a.plaintext.slice(8, 12)}`);
    expect((await h.verify(`${a.plaintext}x`)).body.data.code).toBe('NOT_FOUND');
  });

  test('every key setting is imported; missing roles, permissions and identities are created', async () => {
    const apiId = await h.createApi();
    const migrationId = await createMigration(h);
    const k = foreignKey();
    const expires = Date.now() + 3_600_000;
    const res = await h.call('keys.migrateKeys', {
      migrationId, apiId,
      keys: [{
        hash: k.base64, name: 'imported', externalId: 'migrated_user', meta: { plan: 'gold' },
        roles: ['migrated-admin'], permissions: ['docs.read'], expires, enabled: true,
        credits: { remaining: 5, refill: { interval: 'daily', amount: 5 } },
        ratelimits: [{ name: 'per_minute', limit: 2, duration: 60_000, autoApply: true }],
      }],
    });
    expect(res.status).toBe(200);
    const keyId = res.body.data.migrated[0].keyId;
    const key = (await h.call('keys.getKey', { keyId })).body.data;
    expect(key).toMatchObject({
      keyId, name: 'imported', meta: { plan: 'gold' }, expires, enabled: true, roles: ['migrated-admin'],
      credits: { remaining: 5, refill: { interval: 'daily', amount: 5 } },
      identity: { externalId: 'migrated_user' },
      ratelimits: [{ name: 'per_minute', limit: 2, duration: 60_000, autoApply: true }],
    });
    expect(key.permissions).toEqual(['docs.read']);
    expect((await h.call('permissions.getRole', { role: 'migrated-admin' })).status).toBe(200);
    expect((await h.call('identities.getIdentity', { identity: 'migrated_user' })).status).toBe(200);

    const verified = (await h.verify(k.plaintext, { permissions: 'docs.read' })).body.data;
    expect(verified).toMatchObject({ code: 'VALID', credits: 4, identity: { externalId: 'migrated_user' } });
  });

  test('a disabled import stays disabled', async () => {
    const apiId = await h.createApi();
    const migrationId = await createMigration(h);
    const k = foreignKey();
    await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: k.hex, enabled: false }] });
    expect((await h.verify(k.plaintext)).body.data).toMatchObject({ valid: false, code: 'DISABLED' });
  });

  test('hashes already stored, or repeated in the request, are listed as failed; the rest import', async () => {
    const apiId = await h.createApi();
    const migrationId = await createMigration(h);
    const first = foreignKey();
    const fresh = foreignKey();
    await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: first.base64 }] });
    const res = await h.call('keys.migrateKeys', {
      migrationId, apiId, keys: [{ hash: first.base64 }, { hash: fresh.base64 }, { hash: fresh.hex }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.migrated).toEqual([{ hash: fresh.base64, keyId: expect.stringMatching(/^key_/) }]);
    expect(res.body.data.failed).toEqual([first.base64, fresh.hex]);
    // An existing keygate key cannot be imported a second time either.
    const { key } = await h.createKey({ apiId });
    const existing = foreignKey();
    const hashOfExisting = hashKey(key);
    const again = await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: hashOfExisting }, { hash: existing.hex }] });
    expect(again.body.data.failed).toEqual([hashOfExisting]);
    expect(again.body.data.migrated).toHaveLength(1);
  });

  test('prefixed-api-key hashes import keys that verify once the migration is named', async () => {
    const apiId = await h.createApi();
    const migrationId = await createMigration(h, 'github.com/seamapi/prefixed-api-key');
    const k = prefixedKey('acme');
    const res = await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: k.longTokenHash, name: 'seam' }] });
    expect(res.status).toBe(200);
    expect(res.body.data.migrated[0].hash).toBe(k.longTokenHash);
  });

  test('an API-scoped create_key grant is enough for its own API', async () => {
    const apiId = await h.createApi();
    const migrationId = await createMigration(h);
    const scoped = await h.rootKey([`api.${apiId}.create_key`]);
    const k = foreignKey();
    const res = await h.call('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: k.hex }] }, { rootKey: scoped });
    expect(res.status).toBe(200);
    expect(res.body.data.migrated).toHaveLength(1);
  });
});
