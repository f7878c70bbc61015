/**
 * The 401 and 403 cases every protected procedure must pass, generated from one description.
 */
import { expect, test } from 'vitest';
import type { Harness } from './harness.js';
import { recordSecret } from './run-logs.js';

export function expectError(res: { status: number; body: any }, status: number, typeSuffix: string): void {
  expect(res.status).toBe(status);
  expect(res.body.meta.requestId).toMatch(/^req_/);
  expect(res.body.error.status).toBe(status);
  expect(typeof res.body.error.title).toBe('string');
  expect(typeof res.body.error.detail).toBe('string');
  expect(res.body.error.type).toBe(`https://unkey.com/docs/errors/${typeSuffix}`);
  expect(res.body.data).toBeUndefined();
}

/** 401: missing header, not Bearer, empty token, unknown key, revoked key. */
export function describeUnauthorizedCases(h: Harness, procedure: string, body: () => unknown | Promise<unknown>): void {
  const cases: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a Basic credential', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer with an empty token', { authorization: 'Bearer ' }],
    ['an unknown root key', { authorization: 'Bearer kgroot_doesnotexist0000000000000' }],
  ];
  for (const [name, headers] of cases) {
    test(`${procedure}: ${name} → 401`, async () => {
      const res = await h.call(procedure, await body(), { rootKey: null, headers });
      expectError(res, 401, 'unauthorized');
      expect(res.body.error.title).toBe('Unauthorized');
    });
  }
  test(`${procedure}: a revoked root key → 401`, async () => {
    // Made and revoked through the API, and used in between, so every cache of the server held it.
    const made = await h.call('rootKeys.createRootKey', { name: 'to-revoke', permissions: ['api.*.read_api'] });
    const { rootKeyId, key } = made.body.data;
    recordSecret(key);
    expect((await h.call(procedure, await body(), { rootKey: key })).status).not.toBe(401);
    expect((await h.call('rootKeys.revokeRootKey', { rootKeyId })).status).toBe(200);
    expect((await h.call(procedure, await body(), { rootKey: h.adminKey })).status).not.toBe(401);
    const res = await h.call(procedure, await body(), { rootKey: key });
    expectError(res, 401, 'unauthorized');
    expect(res.body.error.detail).toMatch(/invalid or revoked/);
  });
}

/** 403: a valid root key without the permission; the detail names the missing tuple. */
export function describeForbiddenCase(h: Harness, procedure: string, body: () => unknown | Promise<unknown>, missing: string, granted: string[] = ['identity.*.read_identity']): void {
  test(`${procedure}: a root key without ${missing} → 403 naming it`, async () => {
    const key = await h.rootKey(granted);
    const res = await h.call(procedure, await body(), { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.title).toBe('Forbidden');
    expect(res.body.error.detail).toContain(missing);
  });
}
