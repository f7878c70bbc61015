import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { createMigration, foreignKey } from '../../../support/migrations.js';

describe('keys.migrateKeys → 404', () => {
  const h = useHarness();

  test('an unknown API', async () => {
    const res = await h.call('keys.migrateKeys', { migrationId: await createMigration(h), apiId: 'api_unknown1', keys: [{ hash: foreignKey().hex }] });
    expectError(res, 404, 'unkey/data/api_not_found');
  });

  test('a deleted API', async () => {
    const apiId = await h.createApi();
    await h.call('apis.deleteApi', { apiId });
    const res = await h.call('keys.migrateKeys', { migrationId: await createMigration(h), apiId, keys: [{ hash: foreignKey().hex }] });
    expectError(res, 404, 'unkey/data/api_not_found');
  });

  test('an unknown migration imports nothing', async () => {
    const k = foreignKey();
    const res = await h.call('keys.migrateKeys', { migrationId: 'mig_unknown', apiId: await h.createApi(), keys: [{ hash: k.hex }] });
    expectError(res, 404, 'unkey/data/migration_not_found');
    expect(res.body.error.detail).toBe("Migration 'mig_unknown' was not found.");
    expect((await h.verify(k.plaintext)).body.data.code).toBe('NOT_FOUND');
  });
});
