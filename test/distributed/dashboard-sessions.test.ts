/**
 * Dashboard sessions behind a round-robin load balancer: a session made through one replica works
 * through every other, and a sign-out through one ends it on all (the sessions live in Redis, not in
 * a process; that they outlive a restart is the SessionStore contract's reopen case).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReplicas, type Replicas } from '../support/replicas.js';

const CSRF = 'x-keygate-csrf';

describe('distributed: dashboard sessions are the same on every replica', () => {
  let r: Replicas;
  beforeAll(async () => { r = await startReplicas(3); }, 60_000);
  afterAll(async () => { await r?.stop(); });

  const url = (i: number): string => r.processes[i]!.url;
  const session = (i: number, method: string, cookie: string, csrf?: string) =>
    fetch(`${url(i)}/dashboard/api/session`, { method, headers: { cookie, ...(csrf === undefined ? {} : { [CSRF]: csrf }) } });
  /** A procedure the way the dashboard calls it: the cookie and the CSRF header, no Authorization. */
  const viaSession = (i: number, procedure: string, body: unknown, cookie: string, csrf: string) =>
    fetch(`${url(i)}/v2/${procedure}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, [CSRF]: csrf }, body: JSON.stringify(body) });

  test('signed in through A, it acts through B and C, signs out through B, and A sees the sign-out', async () => {
    const signIn = await fetch(`${url(0)}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rootKey: r.rootKey }) });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { csrfToken } = (await signIn.json() as { data: { csrfToken: string } }).data;

    for (const i of [1, 2]) {
      expect((await session(i, 'GET', cookie)).status).toBe(200);
      const created = await viaSession(i, 'apis.createApi', { name: `via-replica-${i}` }, cookie, csrfToken);
      expect(created.status).toBe(200);
    }
    expect((await session(1, 'DELETE', cookie, csrfToken)).status).toBe(200);
    for (const i of [0, 1, 2]) {
      expect((await session(i, 'GET', cookie)).status).toBe(401);
      expect((await viaSession(i, 'apis.listApis', {}, cookie, csrfToken)).status).toBe(401);
    }
  });
});
