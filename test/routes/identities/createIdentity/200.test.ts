import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.createIdentity → 200', () => {
  const h = useHarness();
  const stored = (externalId: string) => h.keygate.services.storage.identities.findByExternalId(WORKSPACE_ID, externalId);

  test('creates an identity and returns its id', async () => {
    const res = await h.call('identities.createIdentity', { externalId: 'user_123' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.meta.requestId).toMatch(/^req_/);
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
    expect(Object.keys(res.body.data)).toEqual(['identityId']);
    expect(res.body.data.identityId).toMatch(/^id_[1-9A-HJ-NP-Za-km-z]+$/);

    const record = await stored('user_123');
    expect(record?.id).toBe(res.body.data.identityId);
    expect(record?.ratelimits).toEqual([]);
  });

  test('meta and ratelimits are kept', async () => {
    const res = await h.call('identities.createIdentity', {
      externalId: 'org.acme-1',
      meta: { plan: 'pro', seats: 5 },
      ratelimits: [
        { name: 'requests', limit: 100, duration: 60000, autoApply: true },
        { name: 'tokens', limit: 50000, duration: 86400000, autoApply: false },
      ],
    });
    expect(res.status).toBe(200);
    const record = (await stored('org.acme-1'))!;
    expect(record.id).toBe(res.body.data.identityId);
    expect(record.meta).toEqual({ plan: 'pro', seats: 5 });
    expect(record.ratelimits.map(({ name, limit, duration, autoApply }) => ({ name, limit, duration, autoApply }))).toEqual([
      { name: 'requests', limit: 100, duration: 60000, autoApply: true },
      { name: 'tokens', limit: 50000, duration: 86400000, autoApply: false },
    ]);
    for (const r of record.ratelimits) expect(r.id).toMatch(/^rl_/);
  });

  test('duplicate rate-limit names collapse, the last definition winning', async () => {
    const res = await h.call('identities.createIdentity', {
      externalId: 'dup-limits',
      ratelimits: [
        { name: 'requests', limit: 1, duration: 1000, autoApply: false },
        { name: 'requests', limit: 7, duration: 2000, autoApply: true },
      ],
    });
    expect(res.status).toBe(200);
    const record = (await stored('dup-limits'))!;
    expect(record.ratelimits).toHaveLength(1);
    expect(record.ratelimits[0]).toMatchObject({ name: 'requests', limit: 7, duration: 2000, autoApply: true });
  });

  test('unknown top-level properties are tolerated (as Unkey does)', async () => {
    const res = await h.call('identities.createIdentity', { externalId: 'tolerant', environment: 'prod', extra: { a: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.data.identityId).toMatch(/^id_/);
  });

  test('extra properties inside a ratelimit definition are tolerated', async () => {
    const res = await h.call('identities.createIdentity', {
      externalId: 'tolerant-rl',
      ratelimits: [{ name: 'requests', limit: 10, duration: 1000, autoApply: true, note: 'x' }],
    });
    expect(res.status).toBe(200);
  });

  test('externalId is case-sensitive: user and User are two identities', async () => {
    const a = await h.createIdentity({ externalId: 'casey' });
    const b = await h.createIdentity({ externalId: 'Casey' });
    expect(a).not.toBe(b);
  });

  test('externalId of 1 and of 255 characters are accepted (boundaries)', async () => {
    expect((await h.call('identities.createIdentity', { externalId: 'x' })).status).toBe(200);
    expect((await h.call('identities.createIdentity', { externalId: 'y'.repeat(255) })).status).toBe(200);
  });

  test('identity.*.create_identity alone is enough', async () => {
    const key = await h.rootKey(['identity.*.create_identity']);
    const res = await h.call('identities.createIdentity', { externalId: 'scoped-create' }, { rootKey: key });
    expect(res.status).toBe(200);
  });

  test('a limit without autoApply is accepted and is not applied automatically (autoApply false)', async () => {
    const res = await h.call('identities.createIdentity', { externalId: 'no-auto-apply', ratelimits: [{ name: 'requests', limit: 5, duration: 60000 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const got = await h.call('identities.getIdentity', { identity: res.body.data.identityId });
    expect(got.body.data.ratelimits).toEqual([expect.objectContaining({ name: 'requests', limit: 5, duration: 60000, autoApply: false })]);
  });
});
