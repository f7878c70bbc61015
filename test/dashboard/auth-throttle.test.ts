/**
 * Sign-ins are capped per root key (one key's flood never ends another key's sessions), and failed
 * authentications are throttled per client address: past the budget a failure is a 429 with
 * Retry-After, while a valid root key from the same address keeps working.
 */
import { describe, expect, test } from 'vitest';
import { MAX_SESSIONS_PER_ROOT_KEY } from '../../src/storage/sessions.js';
import { expectError } from '../support/auth-cases.js';
import { useHarness, type Harness } from '../support/harness.js';

async function signIn(h: Harness, rootKey: string): Promise<{ status: number; cookie: string; csrf: string; body: any; retryAfter: string | null }> {
  const res = await fetch(`${h.url}/dashboard/api/session`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rootKey }),
  });
  const body = await res.json();
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: body.data?.csrfToken, body, retryAfter: res.headers.get('retry-after') };
}

const viaSession = (h: Harness, s: { cookie: string; csrf: string }) =>
  h.call('apis.listApis', {}, { rootKey: null, headers: { cookie: s.cookie, 'x-keygate-csrf': s.csrf } });

describe('sessions per root key', () => {
  const h = useHarness();

  test('a flood of sign-ins with one narrow root key ends only that key\'s oldest sessions', async () => {
    const admin = await signIn(h, h.adminKey);
    const narrow = await h.rootKey(['api.*.read_api']);
    // Past any overall bound a single process might keep (one used to be 10,000), 20 at a time.
    const first = [];
    for (let i = 0; i < 10; i++) first.push(await signIn(h, narrow));
    for (let sent = 10; sent < 10_050; sent += 20) await Promise.all(Array.from({ length: 20 }, () => signIn(h, narrow)));
    const last = [];
    for (let i = 0; i < MAX_SESSIONS_PER_ROOT_KEY; i++) last.push(await signIn(h, narrow));
    expect((await viaSession(h, admin)).status).toBe(200);
    for (const s of first) expect((await viaSession(h, s)).status).toBe(401);
    for (const s of last) expect((await viaSession(h, s)).status).toBe(200);
  }, 120_000);
});

describe('failed authentications per client address', () => {
  const h = useHarness({ authFailuresPerMinute: 5 });

  test('past the budget, bad bearer keys and failed sign-ins get the 429; a valid key keeps working', async () => {
    for (let i = 0; i < 5; i++) expect((await h.call('apis.listApis', {}, { rootKey: `wrong-${i}` })).status).toBe(401);
    const refused = await h.call('apis.listApis', {}, { rootKey: 'wrong-again' });
    expectError(refused, 429, 'user/too_many_requests/authentication_failures');
    expect(refused.body.error.title).toBe('Too Many Requests');
    expect(refused.body.error.detail).toMatch(/Too many failed authentications/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Missing credentials count as failures too.
    expect((await h.call('apis.listApis', {}, { rootKey: null })).status).toBe(429);
    // A failed sign-in is refused the same way, and sets no cookie.
    const signInRefused = await signIn(h, 'not-a-root-key');
    expect(signInRefused.status).toBe(429);
    expect(signInRefused.cookie).toBe('');
    expect(Number(signInRefused.retryAfter)).toBeGreaterThanOrEqual(1);
    // Valid credentials from the same address are never refused.
    expect((await h.call('apis.listApis', {})).status).toBe(200);
    const good = await signIn(h, h.adminKey);
    expect(good.status).toBe(200);
    expect((await viaSession(h, good)).status).toBe(200);
  });
});

describe('the budget refills', () => {
  const h = useHarness({ authFailuresPerMinute: 600 });

  test('after Retry-After a failure is a 401 again', async () => {
    let refused = null;
    for (let i = 0; i < 700 && refused === null; i++) {
      const res = await h.call('apis.listApis', {}, { rootKey: `wrong-${i}` });
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(401);
    }
    expect(refused).not.toBeNull();
    const wait = Number(refused!.headers.get('retry-after')) * 1000;
    await new Promise((resolve) => setTimeout(resolve, wait + 100));
    expect((await h.call('apis.listApis', {}, { rootKey: 'wrong-after-wait' })).status).toBe(401);
  });
});
