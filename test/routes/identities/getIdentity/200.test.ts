import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('identities.getIdentity → 200', () => {
  const h = useHarness();

  test('by id: the Identity with meta and rate limits', async () => {
    const identityId = await h.createIdentity({
      externalId: 'acme',
      meta: { plan: 'pro', seats: 5 },
      ratelimits: [
        { name: 'requests', limit: 100, duration: 60000, autoApply: true },
        { name: 'tokens', limit: 5000, duration: 86400000, autoApply: false },
      ],
    });
    const res = await h.call('identities.getIdentity', { identity: identityId });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
    expect(res.body.data).toEqual({
      id: identityId,
      externalId: 'acme',
      meta: { plan: 'pro', seats: 5 },
      ratelimits: [
        { id: expect.stringMatching(/^rl_/), name: 'requests', limit: 100, duration: 60000, autoApply: true },
        { id: expect.stringMatching(/^rl_/), name: 'tokens', limit: 5000, duration: 86400000, autoApply: false },
      ],
    });
    const stored = await h.keygate.services.storage.identities.get(identityId);
    expect(res.body.data.ratelimits.map((r: any) => r.id)).toEqual(stored!.ratelimits.map((r) => r.id));
  });

  test('by externalId: the same answer as by id', async () => {
    const identityId = await h.createIdentity({ externalId: 'by-external', meta: { a: 1 } });
    const byExternal = await h.call('identities.getIdentity', { identity: 'by-external' });
    const byId = await h.call('identities.getIdentity', { identity: identityId });
    expect(byExternal.status).toBe(200);
    expect(byExternal.body.data).toEqual(byId.body.data);
    expect(byExternal.body.data).toEqual({ id: identityId, externalId: 'by-external', meta: { a: 1 } });
  });

  test('an identity without meta or limits has only id and externalId', async () => {
    const identityId = await h.createIdentity({ externalId: 'bare', meta: {} });
    const res = await h.call('identities.getIdentity', { identity: identityId });
    expect(res.body.data).toEqual({ id: identityId, externalId: 'bare' });
  });

  test('an id match is preferred over an externalId match', async () => {
    const first = await h.createIdentity({ externalId: 'first-one' });
    // A second identity whose externalId is the first one's id.
    const second = await h.createIdentity({ externalId: first });
    const res = await h.call('identities.getIdentity', { identity: first });
    expect(res.body.data).toEqual({ id: first, externalId: 'first-one' });
    expect(second).not.toBe(first);
    expect((await h.call('identities.getIdentity', { identity: second })).body.data).toEqual({ id: second, externalId: first });
  });

  test('an identity created by keys.createKey can be read', async () => {
    const apiId = await h.createApi();
    await h.createKey({ apiId, externalId: 'from-a-key' });
    const res = await h.call('identities.getIdentity', { identity: 'from-a-key' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: expect.stringMatching(/^id_/), externalId: 'from-a-key' });
  });

  test('identity.*.read_identity and identity.<id>.read_identity each suffice', async () => {
    const identityId = await h.createIdentity({ externalId: 'readable' });
    for (const grant of ['identity.*.read_identity', `identity.${identityId}.read_identity`]) {
      const key = await h.rootKey([grant]);
      for (const identity of [identityId, 'readable']) {
        const res = await h.call('identities.getIdentity', { identity }, { rootKey: key });
        expect(res.status).toBe(200);
        expect(res.body.data.id).toBe(identityId);
      }
    }
  });
});
