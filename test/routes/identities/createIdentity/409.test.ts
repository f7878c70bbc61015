import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.createIdentity → 409', () => {
  const h = useHarness();

  test('a duplicate externalId → 409 identity_already_exists, and the first identity is untouched', async () => {
    const first = await h.call('identities.createIdentity', {
      externalId: 'user_42',
      ratelimits: [{ name: 'requests', limit: 5, duration: 1000, autoApply: true }],
    });
    expect(first.status).toBe(200);

    const res = await h.call('identities.createIdentity', {
      externalId: 'user_42',
      ratelimits: [{ name: 'requests', limit: 999, duration: 1000, autoApply: true }],
    });
    expectError(res, 409, 'unkey/data/identity_already_exists');
    expect(res.body.error.type).toBe('https://unkey.com/docs/errors/unkey/data/identity_already_exists');
    expect(res.body.error.title).toBe('Conflicting Resource');
    expect(res.body.error.detail).toBe("Identity with externalId 'user_42' already exists in this workspace.");
    expect(res.body.error.errors).toBeUndefined();

    const record = (await h.keygate.services.storage.identities.findByExternalId(WORKSPACE_ID, 'user_42'))!;
    expect(record.id).toBe(first.body.data.identityId);
    expect(record.ratelimits[0]?.limit).toBe(5);
  });

  test('concurrent creates of one externalId: exactly one succeeds, the rest get 409', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => h.call('identities.createIdentity', { externalId: 'racy' })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const conflicts = results.filter((r) => r.status === 409);
    expect(conflicts).toHaveLength(9);
    for (const r of conflicts) expect(r.body.error.title).toBe('Conflicting Resource');
  });

  test('the conflict is exact-match: a different case is a new identity', async () => {
    await h.createIdentity({ externalId: 'mixed' });
    expect((await h.call('identities.createIdentity', { externalId: 'Mixed' })).status).toBe(200);
    expect((await h.call('identities.createIdentity', { externalId: 'mixed' })).status).toBe(409);
  });
});
