import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { createMigration, foreignKey } from '../../../support/migrations.js';

describe('keys.migrateKeys → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'keys.migrateKeys', async () => ({
    migrationId: await createMigration(h), apiId: await h.createApi(), keys: [{ hash: foreignKey().hex }],
  }), 'api.*.create_key', ['api.*.verify_key']);

  test('a grant for another API is refused, before anything is looked up or imported', async () => {
    const mine = await h.createApi();
    const other = await h.createApi();
    const migrationId = await createMigration(h);
    const scoped = await h.rootKey([`api.${mine}.create_key`]);
    const k = foreignKey();
    const res = await h.call('keys.migrateKeys', { migrationId, apiId: other, keys: [{ hash: k.hex }] }, { rootKey: scoped });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain(`api.${other}.create_key`);
    expect((await h.verify(k.plaintext)).body.data.code).toBe('NOT_FOUND');
    // Unknown API and unknown migration answer the same 403: nothing is revealed.
    const unknown = await h.call('keys.migrateKeys', { migrationId: 'mig_nope', apiId: 'api_nope', keys: [{ hash: k.hex }] }, { rootKey: scoped });
    expect(unknown.status).toBe(403);
  });
});
