import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { createMigration, foreignKey, prefixedKey } from '../../../support/migrations.js';

describe('keys.migrateKeys → 400', () => {
  const h = useHarness();

  const cases: [string, (ids: { apiId: string; migrationId: string }) => unknown][] = [
    ['no keys', (ids) => ({ ...ids, keys: [] })],
    ['keys missing', (ids) => ids],
    ['migrationId missing', ({ apiId }) => ({ apiId, keys: [{ hash: foreignKey().hex }] })],
    ['a key without hash', (ids) => ({ ...ids, keys: [{ name: 'x' }] })],
    ['an unknown field on a key', (ids) => ({ ...ids, keys: [{ hash: foreignKey().hex, plaintext: 'nope' }] })],
    ['a permission slug with spaces', (ids) => ({ ...ids, keys: [{ hash: foreignKey().hex, permissions: ['a b'] }] })],
    ['a ratelimit without duration', (ids) => ({ ...ids, keys: [{ hash: foreignKey().hex, ratelimits: [{ name: 'abc', limit: 1 }] }] })],
  ];
  for (const [name, body] of cases) {
    test(`${name} → 400 with errors[]`, async () => {
      const ids = { apiId: await h.createApi(), migrationId: await createMigration(h) };
      const res = await h.call('keys.migrateKeys', body(ids));
      expectError(res, 400, 'unkey/application/invalid_input');
      expect(res.body.error.errors.length).toBeGreaterThan(0);
    });
  }

  test('a hash that is not of the migration\'s algorithm refuses the whole request', async () => {
    const apiId = await h.createApi();
    const sha = await createMigration(h, 'sha256');
    const good = foreignKey();
    const res = await h.call('keys.migrateKeys', { migrationId: sha, apiId, keys: [{ hash: good.hex }, { hash: 'not-a-sha256' }] });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toContain('keys[1].hash');
    // Nothing was imported, not even the valid first key.
    expect((await h.verify(good.plaintext)).body.data.code).toBe('NOT_FOUND');

    // prefixed-api-key keeps hex SHA-256 of the long token: base64 is not that.
    const prefixed = await createMigration(h, 'github.com/seamapi/prefixed-api-key');
    const bad = await h.call('keys.migrateKeys', { migrationId: prefixed, apiId, keys: [{ hash: good.base64 }] });
    expectError(bad, 400, 'unkey/application/invalid_input');
    expect((await h.call('keys.migrateKeys', { migrationId: prefixed, apiId, keys: [{ hash: prefixedKey().longTokenHash }] })).status).toBe(200);
  });

  test('a monthly refill without refillDay refuses the whole request', async () => {
    const ids = { apiId: await h.createApi(), migrationId: await createMigration(h) };
    const k = foreignKey();
    const res = await h.call('keys.migrateKeys', {
      ...ids, keys: [{ hash: k.hex, credits: { remaining: 1, refill: { interval: 'monthly', amount: 5 } } }],
    });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toContain('refillDay');
    expect((await h.verify(k.plaintext)).body.data.code).toBe('NOT_FOUND');
  });
});
