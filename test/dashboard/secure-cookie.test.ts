/**
 * SESSION_COOKIE_SECURE: with `always` (keygate serving TLS itself, no proxy header) the session
 * cookie is Secure and named `__Host-keygate_session` (Path=/, no Domain, as that prefix demands),
 * and it signs the dashboard in like the plain one; behind a proxy that says HTTPS the same holds
 * in the default `auto`.
 */
import { describe, expect, test } from 'vitest';
import { useHarness, type Harness } from '../support/harness.js';

async function signIn(h: Harness, headers: Record<string, string> = {}): Promise<{ setCookie: string; cookie: string; csrf: string }> {
  const res = await fetch(`${h.url}/dashboard/api/session`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ rootKey: h.adminKey }),
  });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { setCookie, cookie: setCookie.split(';')[0]!, csrf: (await res.json()).data.csrfToken };
}

async function usable(h: Harness, s: { cookie: string; csrf: string }): Promise<void> {
  const res = await h.call('apis.listApis', {}, { rootKey: null, headers: { cookie: s.cookie, 'x-keygate-csrf': s.csrf } });
  expect(res.status).toBe(200);
  const out = await fetch(`${h.url}/dashboard/api/session`, { method: 'DELETE', headers: { cookie: s.cookie, 'x-keygate-csrf': s.csrf } });
  expect(out.status).toBe(200);
  // Sign-out clears the cookie of the same name.
  expect(out.headers.get('set-cookie')).toMatch(new RegExp(`^${s.cookie.split('=')[0]}=; Path=/; Max-Age=0`));
}

describe('SESSION_COOKIE_SECURE=always', () => {
  const h = useHarness({ sessionCookieSecure: 'always' });

  test('the cookie is Secure, __Host- prefixed, Path=/ and without Domain, on plain requests too', async () => {
    const s = await signIn(h);
    expect(s.setCookie).toMatch(/^__Host-keygate_session=[A-Za-z0-9_-]{43}; Path=\/; /);
    expect(s.setCookie).toContain('; Secure');
    expect(s.setCookie).toContain('; HttpOnly');
    expect(s.setCookie).not.toMatch(/domain=/i);
    await usable(h, s);
  });
});

describe('SESSION_COOKIE_SECURE=auto (the default)', () => {
  const h = useHarness();

  test('plain HTTP: keygate_session without Secure; behind a proxy saying https: the __Host- Secure cookie', async () => {
    const plain = await signIn(h);
    expect(plain.setCookie).toMatch(/^keygate_session=/);
    expect(plain.setCookie).not.toContain('Secure');
    await usable(h, plain);
    const proxied = await signIn(h, { 'x-forwarded-proto': 'https' });
    expect(proxied.setCookie).toMatch(/^__Host-keygate_session=[A-Za-z0-9_-]{43}; Path=\//);
    expect(proxied.setCookie).toContain('; Secure');
    await usable(h, proxied);
  });
});
