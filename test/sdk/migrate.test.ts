import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { createMigration, foreignKey, prefixedKey, slowKey } from '../support/migrations.js';
import { sdkFor } from './support.js';

describe('the official SDK against keygate: key migrations', () => {
  const h = useHarness();

  test('migrateKeys imports sha256 hashes; the keys verify; duplicates come back as failed', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-migrated' })).data;
    const migrationId = await createMigration(h, 'sha256');
    const a = foreignKey();
    const b = foreignKey();
    const { data } = await unkey.keys.migrateKeys({
      migrationId, apiId,
      keys: [
        { hash: a.base64, name: 'a', externalId: 'sdk_migrated', credits: { remaining: 3 }, roles: ['sdk-mig-role'], permissions: ['sdk.read'] },
        { hash: b.hex, enabled: false },
        { hash: a.hex },
      ],
    });
    expect(data.migrated.map((m) => m.hash)).toEqual([a.base64, b.hex]);
    expect(data.failed).toEqual([a.hex]);
    const verified = (await unkey.keys.verifyKey({ key: a.plaintext, permissions: 'sdk.read' })).data;
    expect(verified).toMatchObject({ valid: true, keyId: data.migrated[0]!.keyId, name: 'a', credits: 2, roles: ['sdk-mig-role'], identity: { externalId: 'sdk_migrated' } });
    expect((await unkey.keys.verifyKey({ key: b.plaintext })).data.code).toBe('DISABLED');
  });

  test('prefixed-api-key keys verify through migrationId once, then as ordinary keys', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-seam' })).data;
    const migrationId = await createMigration(h, 'github.com/seamapi/prefixed-api-key');
    const k = prefixedKey('seam');
    const { data } = await unkey.keys.migrateKeys({ migrationId, apiId, keys: [{ hash: k.longTokenHash }] });
    const keyId = data.migrated[0]!.keyId;
    expect((await unkey.keys.verifyKey({ key: k.plaintext })).data).toEqual({ valid: false, code: 'NOT_FOUND' });
    expect((await unkey.keys.verifyKey({ key: k.plaintext, migrationId })).data).toMatchObject({ valid: true, keyId });
    expect((await unkey.keys.verifyKey({ key: k.plaintext })).data).toMatchObject({ valid: true, keyId });
    expect((await unkey.keys.getKey({ keyId })).data.start).toBe(k.start);
    const malformed = await unkey.keys.verifyKey({ key: 'nounderscore', migrationId }).catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(errors.BadRequestErrorResponse);
  });

  test('slow-hash migrations (bcrypt, scrypt, argon2id): verified once with migrationId, then as ordinary keys', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-slow' })).data;
    for (const algorithm of ['bcrypt', 'scrypt', 'argon2id'] as const) {
      const migrationId = await createMigration(h, algorithm);
      const k = slowKey(algorithm);
      const { data } = await unkey.keys.migrateKeys({ migrationId, apiId, keys: [{ hash: k.imported, name: algorithm }] });
      const keyId = data.migrated[0]!.keyId;
      expect((await unkey.keys.verifyKey({ key: k.wrongSecret, migrationId })).data).toEqual({ valid: false, code: 'NOT_FOUND' });
      expect((await unkey.keys.verifyKey({ key: k.plaintext, migrationId })).data).toMatchObject({ valid: true, keyId, name: algorithm });
      expect((await unkey.keys.verifyKey({ key: k.plaintext })).data).toMatchObject({ valid: true, keyId });
    }
  });

  test('errors: unknown migration or API (404), missing permission (403), bad hash (400)', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-migrate-errors' })).data;
    const migrationId = await createMigration(h);
    const noMigration = await unkey.keys.migrateKeys({ migrationId: 'mig_missing', apiId, keys: [{ hash: foreignKey().hex }] }).catch((e: unknown) => e);
    expect(noMigration).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((noMigration as errors.NotFoundErrorResponse).data$.error.type).toBe('https://unkey.com/docs/errors/unkey/data/migration_not_found');
    const noApi = await unkey.keys.migrateKeys({ migrationId, apiId: 'api_missing', keys: [{ hash: foreignKey().hex }] }).catch((e: unknown) => e);
    expect(noApi).toBeInstanceOf(errors.NotFoundErrorResponse);

    const limited = sdkFor(h, await h.rootKey(['api.*.read_key']));
    const forbidden = await limited.keys.migrateKeys({ migrationId, apiId, keys: [{ hash: foreignKey().hex }] }).catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect((forbidden as errors.ForbiddenErrorResponse).data$.error.detail).toContain('api.*.create_key');

    const badHash = await unkey.keys.migrateKeys({ migrationId, apiId, keys: [{ hash: 'zzz-not-a-hash' }] }).catch((e: unknown) => e);
    expect(badHash).toBeInstanceOf(errors.BadRequestErrorResponse);
  });
});
