import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { sdkFor } from './support.js';

const DOCS = 'https://unkey.com/docs/errors';
const rejection = (p: Promise<unknown>): Promise<unknown> => p.then(() => { throw new Error('expected the SDK call to fail'); }, (e: unknown) => e);

describe('the official SDK against keygate: apis.deleteApi', () => {
  const h = useHarness();

  test('a deleted API is gone for every procedure; its keys stop verifying; deleting again is a 404', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-doomed' })).data;
    const { key, keyId } = (await unkey.keys.createKey({ apiId })).data;
    expect((await unkey.keys.verifyKey({ key })).data.valid).toBe(true);

    const deleted = await unkey.apis.deleteApi({ apiId });
    expect(deleted.data).toEqual({});
    expect(deleted.meta.requestId).toBeTruthy();

    const missing = await rejection(unkey.apis.getApi({ apiId }));
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((await unkey.keys.verifyKey({ key })).data).toEqual({ valid: false, code: 'NOT_FOUND' });
    expect(await rejection(unkey.keys.getKey({ keyId }))).toBeInstanceOf(errors.NotFoundErrorResponse);
    const noNewKeys = await rejection(unkey.keys.createKey({ apiId }));
    expect(noNewKeys).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((noNewKeys as errors.NotFoundErrorResponse).data$.error.type).toBe(`${DOCS}/unkey/data/api_not_found`);

    const again = await rejection(unkey.apis.deleteApi({ apiId }));
    expect(again).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((again as errors.NotFoundErrorResponse).data$.error).toMatchObject({ status: 404, type: `${DOCS}/unkey/data/api_not_found` });
  });

  test('a root key scoped to the API may delete it; one scoped to another API gets a 403 naming the tuples', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-scoped' })).data;
    const other = (await unkey.apis.createApi({ name: 'sdk-other' })).data.apiId;

    const wrongScope = sdkFor(h, await h.rootKey([`api.${other}.delete_api`, 'api.*.read_api']));
    const forbidden = await rejection(wrongScope.apis.deleteApi({ apiId }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    const { error } = (forbidden as errors.ForbiddenErrorResponse).data$;
    expect(error).toMatchObject({ status: 403, type: `${DOCS}/forbidden` });
    expect(error.detail).toContain('api.*.delete_api');
    expect(error.detail).toContain(`api.${apiId}.delete_api`);
    expect((await unkey.apis.getApi({ apiId })).data.id).toBe(apiId);

    // Permission first: an unknown API is a 403 too, revealing nothing.
    expect(await rejection(wrongScope.apis.deleteApi({ apiId: 'api_00000000' }))).toBeInstanceOf(errors.ForbiddenErrorResponse);

    const scoped = sdkFor(h, await h.rootKey([`api.${apiId}.delete_api`]));
    expect((await scoped.apis.deleteApi({ apiId })).data).toEqual({});
    expect(await rejection(unkey.apis.getApi({ apiId }))).toBeInstanceOf(errors.NotFoundErrorResponse);
  });

  test('a malformed apiId is a 400 and an unknown root key a 401, as SDK error classes', async () => {
    const bad = await rejection(sdkFor(h).apis.deleteApi({ apiId: 'api_x' }));
    expect(bad).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect((bad as errors.BadRequestErrorResponse).data$.error.status).toBe(400);
    expect((bad as errors.BadRequestErrorResponse).data$.error.errors.length).toBeGreaterThan(0);
    expect(await rejection(sdkFor(h, 'kg_unknown_root').apis.deleteApi({ apiId: 'api_00000000' }))).toBeInstanceOf(errors.UnauthorizedErrorResponse);
  });
});

describe('the official SDK against keygate: apis.listKeys', () => {
  const h = useHarness();

  test('pages through every key in id order with the cursor, by next() and by for-await', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-list' })).data;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await unkey.keys.createKey({ apiId, name: `k${i}` })).data.keyId);
    const sorted = [...ids].sort();

    const first = await unkey.apis.listKeys({ apiId, limit: 2 });
    expect(first.result.data.map((k) => k.keyId)).toEqual(sorted.slice(0, 2));
    expect(first.result.pagination).toEqual({ hasMore: true, cursor: sorted[2] });

    const second = await first.next();
    expect(second?.result.data.map((k) => k.keyId)).toEqual(sorted.slice(2, 4));
    const byCursor = await unkey.apis.listKeys({ apiId, limit: 2, cursor: second!.result.pagination!.cursor! });
    expect(byCursor.result.data.map((k) => k.keyId)).toEqual(sorted.slice(4));
    expect(byCursor.result.pagination).toEqual({ hasMore: false });
    expect(await byCursor.next()).toBeNull();

    const seen: string[] = [];
    let pages = 0;
    for await (const page of await unkey.apis.listKeys({ apiId, limit: 2 })) {
      pages++;
      seen.push(...page.result.data.map((k) => k.keyId));
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(sorted);
    const all = await unkey.apis.listKeys({ apiId });
    expect(all.result.data.map((k) => k.name)).toEqual(sorted.map((id) => `k${ids.indexOf(id)}`));
  });

  test('each key is described as getKey describes it; externalId filters by identity', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-filter' })).data;
    await unkey.identities.createIdentity({ externalId: 'list_alice', meta: { plan: 'pro' } });
    const alice1 = (await unkey.keys.createKey({
      apiId, prefix: 'al', externalId: 'list_alice', name: 'a1', meta: { n: 1 }, credits: { remaining: 7 },
      permissions: ['docs.read'], ratelimits: [{ name: 'req', limit: 3, duration: 60_000, autoApply: true }],
    })).data;
    const alice2 = (await unkey.keys.createKey({ apiId, externalId: 'list_alice' })).data;
    await unkey.keys.createKey({ apiId, externalId: 'list_bob' });
    await unkey.keys.createKey({ apiId });

    const filtered = (await unkey.apis.listKeys({ apiId, externalId: 'list_alice' })).result;
    expect(filtered.data.map((k) => k.keyId).sort()).toEqual([alice1.keyId, alice2.keyId].sort());
    expect(filtered.pagination).toEqual({ hasMore: false });
    const listed = filtered.data.find((k) => k.keyId === alice1.keyId)!;
    expect(listed).toEqual((await unkey.keys.getKey({ keyId: alice1.keyId })).data);
    expect(listed).toMatchObject({
      start: expect.stringMatching(/^al_/), enabled: true, name: 'a1', meta: { n: 1 }, permissions: ['docs.read'],
      credits: { remaining: 7 }, identity: { externalId: 'list_alice', meta: { plan: 'pro' } },
      ratelimits: [{ name: 'req', limit: 3, duration: 60_000, autoApply: true }],
    });
    expect(listed.ratelimits![0]!.id).toMatch(/^rl_/);

    // The filter pages like the full list, and stays within the API.
    await unkey.keys.createKey({ apiId: (await unkey.apis.createApi({ name: 'sdk-filter-other' })).data.apiId, externalId: 'list_alice' });
    const onePerPage: string[] = [];
    for await (const page of await unkey.apis.listKeys({ apiId, externalId: 'list_alice', limit: 1 })) onePerPage.push(...page.result.data.map((k) => k.keyId));
    expect(onePerPage).toEqual([alice1.keyId, alice2.keyId].sort());
    expect((await unkey.apis.listKeys({ apiId, externalId: 'list_bob' })).result.data).toHaveLength(1);
    const nobody = (await unkey.apis.listKeys({ apiId, externalId: 'list_nobody' })).result;
    expect(nobody).toMatchObject({ data: [], pagination: { hasMore: false } });
    expect((await unkey.apis.listKeys({ apiId })).result.data).toHaveLength(4);
  });

  test('decrypt: true is a 412 (no key is recoverable), after its permission check', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-decrypt' })).data;
    await unkey.keys.createKey({ apiId });
    // The SDK declares no 412 here, so it raises its generic APIError.
    expect(await rejection(unkey.apis.listKeys({ apiId, decrypt: true }))).toMatchObject({ statusCode: 412 });

    const reader = sdkFor(h, await h.rootKey(['api.*.read_key', 'api.*.read_api']));
    expect((await reader.apis.listKeys({ apiId })).result.data).toHaveLength(1);
    const noDecrypt = await rejection(reader.apis.listKeys({ apiId, decrypt: true }));
    expect(noDecrypt).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect((noDecrypt as errors.ForbiddenErrorResponse).data$.error.detail).toContain('api.*.decrypt_key');

    const scoped = sdkFor(h, await h.rootKey([`api.${apiId}.read_key`, `api.${apiId}.read_api`, `api.${apiId}.decrypt_key`]));
    expect(await rejection(scoped.apis.listKeys({ apiId, decrypt: true }))).toMatchObject({ statusCode: 412 });
    expect((await scoped.apis.listKeys({ apiId })).result.data).toHaveLength(1);
  });

  test('errors: 403 naming the missing read tuple, 404 for an unknown API, 400 for a bad cursor or limit', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-list-errors' })).data;

    const keysOnly = sdkFor(h, await h.rootKey(['api.*.read_key']));
    const forbidden = await rejection(keysOnly.apis.listKeys({ apiId }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect((forbidden as errors.ForbiddenErrorResponse).data$.error.detail).toContain('api.*.read_api');
    expect((forbidden as errors.ForbiddenErrorResponse).data$.error.detail).not.toContain('read_key');

    const missing = await rejection(unkey.apis.listKeys({ apiId: 'api_00000000' }));
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((missing as errors.NotFoundErrorResponse).data$.error.type).toBe(`${DOCS}/unkey/data/api_not_found`);
    await unkey.apis.deleteApi({ apiId });
    expect(await rejection(unkey.apis.listKeys({ apiId }))).toBeInstanceOf(errors.NotFoundErrorResponse);

    const longCursor = await rejection(unkey.apis.listKeys({ apiId, cursor: 'k'.repeat(1025) }));
    expect(longCursor).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect((longCursor as errors.BadRequestErrorResponse).data$.error.type).toBe(`${DOCS}/unkey/application/invalid_input`);
    expect(await rejection(unkey.apis.listKeys({ apiId, limit: 0 }))).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(await rejection(unkey.apis.listKeys({ apiId, limit: 101 }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });
});
