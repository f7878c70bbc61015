/**
 * A change made through a dashboard session names the session in its audit event by a digest:
 * two sessions of one root key are told apart, and neither the session id nor its CSRF token
 * appears in the log.
 */
import { describe, expect, test } from 'vitest';
import { useHarness, type Harness } from '../support/harness.js';

const CSRF = 'x-keygate-csrf';

async function signIn(h: Harness): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${h.url}/dashboard/api/session`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rootKey: h.adminKey }),
  });
  expect(res.status).toBe(200);
  const body = await res.json() as { data: { csrfToken: string } };
  return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: body.data.csrfToken };
}

describe('audit events of dashboard sessions', () => {
  const h = useHarness();

  test('each session has its own reference; no session secret is kept; bearer calls have none', async () => {
    const first = await signIn(h);
    const second = await signIn(h);
    const viaSession = (s: { cookie: string; csrf: string }, name: string) =>
      h.call('apis.createApi', { name }, { rootKey: null, headers: { cookie: s.cookie, [CSRF]: s.csrf } });
    expect((await viaSession(first, 'from-first')).status).toBe(200);
    expect((await viaSession(second, 'from-second')).status).toBe(200);
    expect((await h.call('apis.createApi', { name: 'from-bearer' })).status).toBe(200);

    const events = (await h.call('auditLogs.listAuditLogs', { procedure: 'apis.createApi' })).body.data as any[];
    const byName = new Map(events.map((e) => [e.targets[0].name, e]));
    expect(byName.get('from-first').session).toMatch(/^ses_[A-Za-z0-9_-]{16}$/);
    expect(byName.get('from-second').session).toMatch(/^ses_/);
    expect(byName.get('from-first').session).not.toBe(byName.get('from-second').session);
    expect(byName.get('from-bearer').session).toBeUndefined();
    expect(byName.get('from-first').actor).toEqual(byName.get('from-bearer').actor);

    const log = JSON.stringify(events);
    for (const s of [first, second]) {
      expect(log).not.toContain(s.cookie.split('=')[1]);
      expect(log).not.toContain(s.csrf);
    }
  });
});
