/**
 * The dashboard's way in, over real HTTP: sign-in sets an HttpOnly, SameSite=Strict session
 * cookie; procedures accept it only together with the session's CSRF token; the session acts with
 * exactly its root key's permissions and ends with sign-out or with the key's revocation.
 */
import { sessionIdFrom } from '../../src/auth/session.js';
import { describe, expect, test } from 'vitest';
import { useHarness, type Harness } from '../support/harness.js';

const CSRF = 'x-keygate-csrf';

interface Signed { cookie: string; csrf: string; setCookie: string; body: any }

async function signIn(h: Harness, rootKey: string, headers: Record<string, string> = {}): Promise<Signed> {
  const res = await fetch(`${h.url}/dashboard/api/session`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ rootKey }),
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0]!, csrf: body.data.csrfToken, setCookie, body };
}

/** A procedure call the way the dashboard makes it: cookie + CSRF header, no Authorization. */
function viaSession(h: Harness, procedure: string, body: unknown, s: { cookie: string; csrf?: string }, extra: Record<string, string> = {}) {
  return h.call(procedure, body, { rootKey: null, headers: { cookie: s.cookie, ...(s.csrf === undefined ? {} : { [CSRF]: s.csrf }), ...extra } });
}

describe('dashboard sessions', () => {
  const h = useHarness();

  test('sign-in sets an HttpOnly, SameSite=Strict, Path=/ cookie with a Max-Age, holding a random id, not the key', async () => {
    const s = await signIn(h, h.adminKey);
    expect(s.setCookie).toMatch(/^keygate_session=[A-Za-z0-9_-]{43}; /);
    expect(s.setCookie).toContain('; HttpOnly');
    expect(s.setCookie).toContain('; SameSite=Strict');
    expect(s.setCookie).toContain('; Path=/');
    expect(s.setCookie).toContain('; Max-Age=28800');
    // Plain HTTP (localhost): a Secure cookie would never come back.
    expect(s.setCookie).not.toContain('Secure');
    expect(s.setCookie).not.toContain(h.adminKey);
    expect(s.body.data).toMatchObject({ rootKeyId: expect.stringMatching(/^rk_/), permissions: expect.arrayContaining(['root_key.*.create_root_key']), csrfToken: expect.any(String), expiresAt: expect.any(Number) });
    expect(JSON.stringify(s.body)).not.toContain(h.adminKey);
    expect(h.logs()).not.toContain(h.adminKey);
  });

  test('behind a TLS proxy (x-forwarded-proto: https) the cookie is Secure', async () => {
    const s = await signIn(h, h.adminKey, { 'x-forwarded-proto': 'https' });
    expect(s.setCookie).toContain('; Secure');
  });

  test('an unknown or revoked root key gets the 401 and no cookie', async () => {
    for (const rootKey of ['kgroot_doesnotexist000000000000000', 'x']) {
      const res = await fetch(`${h.url}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rootKey }) });
      expect(res.status).toBe(401);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect((await res.json()).error.type).toBe('https://unkey.com/docs/errors/unauthorized');
    }
    const { rootKeyId, key } = (await h.call('rootKeys.createRootKey', { name: 'gone', permissions: ['api.*.read_api'] })).body.data;
    await h.call('rootKeys.revokeRootKey', { rootKeyId });
    const res = await fetch(`${h.url}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rootKey: key }) });
    expect(res.status).toBe(401);
  });

  test('sign-in takes JSON only, so a cross-site form cannot sign anyone in', async () => {
    const form = await fetch(`${h.url}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `rootKey=${h.adminKey}` });
    expect(form.status).toBe(400);
    expect(form.headers.get('set-cookie')).toBeNull();
    const text = await fetch(`${h.url}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ rootKey: h.adminKey }) });
    expect(text.status).toBe(400);
    const shape = await fetch(`${h.url}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: h.adminKey }) });
    expect(shape.status).toBe(400);
  });

  test('GET /dashboard/api/session answers the session (same CSRF token) or 401', async () => {
    const s = await signIn(h, h.adminKey);
    const res = await fetch(`${h.url}/dashboard/api/session`, { headers: { cookie: s.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.json()).data.csrfToken).toBe(s.csrf);
    expect((await fetch(`${h.url}/dashboard/api/session`)).status).toBe(401);
    expect((await fetch(`${h.url}/dashboard/api/session`, { headers: { cookie: 'keygate_session=forged' } })).status).toBe(401);
  });

  test('procedures accept the cookie only with the session CSRF token; without it the cookie is ignored (401) and nothing happens', async () => {
    const s = await signIn(h, h.adminKey);
    const ok = await viaSession(h, 'apis.createApi', { name: 'via-session' }, s);
    expect(ok.status).toBe(200);

    const before = (await h.call('apis.listApis', {})).body.data.length;
    const noHeader = await viaSession(h, 'apis.createApi', { name: 'csrf-1' }, { cookie: s.cookie });
    expect(noHeader.status).toBe(401);
    const wrong = await viaSession(h, 'apis.createApi', { name: 'csrf-2' }, { cookie: s.cookie, csrf: 'not-the-token' });
    expect(wrong.status).toBe(401);
    const otherSession = await signIn(h, h.adminKey);
    const swapped = await viaSession(h, 'apis.createApi', { name: 'csrf-3' }, { cookie: s.cookie, csrf: otherSession.csrf });
    expect(swapped.status).toBe(401);
    expect((await h.call('apis.listApis', {})).body.data.length).toBe(before);
  });

  test('the session acts with exactly its root key’s permissions, through the same checks', async () => {
    const limited = await h.rootKey(['api.*.read_api']);
    const s = await signIn(h, limited);
    expect(s.body.data.permissions).toEqual(['api.*.read_api']);
    expect((await viaSession(h, 'apis.listApis', {}, s)).status).toBe(200);
    const denied = await viaSession(h, 'apis.createApi', { name: 'not-allowed' }, s);
    expect(denied.status).toBe(403);
    expect(denied.body.error.detail).toContain('api.*.create_api');
    const rootKeys = await viaSession(h, 'rootKeys.createRootKey', { name: 'x', permissions: ['api.*.read_api'] }, s);
    expect(rootKeys.status).toBe(403);
  });

  test('an Authorization header wins over a cookie: bearer calls never look at sessions', async () => {
    const s = await signIn(h, h.adminKey);
    const limited = await h.rootKey(['api.*.read_api']);
    const res = await h.call('apis.createApi', { name: 'bearer-wins' }, { rootKey: limited, headers: { cookie: s.cookie, [CSRF]: s.csrf } });
    expect(res.status).toBe(403);
  });

  test('sign-out needs the CSRF token, ends the session and clears the cookie', async () => {
    const s = await signIn(h, h.adminKey);
    const forged = await fetch(`${h.url}/dashboard/api/session`, { method: 'DELETE', headers: { cookie: s.cookie } });
    expect(forged.status).toBe(401);
    expect((await viaSession(h, 'apis.listApis', {}, s)).status).toBe(200);

    const out = await fetch(`${h.url}/dashboard/api/session`, { method: 'DELETE', headers: { cookie: s.cookie, [CSRF]: s.csrf } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^keygate_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Strict/);
    expect((await viaSession(h, 'apis.listApis', {}, s)).status).toBe(401);
    expect((await fetch(`${h.url}/dashboard/api/session`, { headers: { cookie: s.cookie } })).status).toBe(401);
  });

  test('revoking the root key ends its sessions at once, whoever revokes it', async () => {
    const { rootKeyId, key } = (await h.call('rootKeys.createRootKey', { name: 'session key', permissions: ['api.*.read_api'] })).body.data;
    const s = await signIn(h, key);
    expect((await viaSession(h, 'apis.listApis', {}, s)).status).toBe(200);
    // Revoked in the store directly (as the CLI does): the session re-checks its key every time.
    await h.keygate.services.storage.rootKeys.revoke(rootKeyId, Date.now());
    const res = await viaSession(h, 'apis.listApis', {}, s);
    expect(res.status).toBe(401);
    expect(res.body.error.detail).toMatch(/session/);
    expect((await fetch(`${h.url}/dashboard/api/session`, { headers: { cookie: s.cookie } })).status).toBe(401);
  });

  test('a session may revoke its own key through the procedure; it ends with it', async () => {
    const { rootKeyId, key } = (await h.call('rootKeys.createRootKey', { name: 'self', permissions: ['root_key.*.revoke_root_key'] })).body.data;
    const s = await signIn(h, key);
    expect((await viaSession(h, 'rootKeys.revokeRootKey', { rootKeyId }, s)).status).toBe(200);
    // Revoking ended the session in the store too, not only its use.
    expect(await h.keygate.services.storage.sessions.get(sessionIdFrom(s.cookie), Date.now())).toBeNull();
    expect((await fetch(`${h.url}/dashboard/api/session`, { headers: { cookie: s.cookie } })).status).toBe(401);
  });
});
