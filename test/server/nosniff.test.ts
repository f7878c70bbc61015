/** Every JSON answer carries `X-Content-Type-Options: nosniff`, successes and errors alike. */
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';

describe('X-Content-Type-Options: nosniff', () => {
  const h = useHarness();

  test('on procedure answers (200, 400, 401, 404, 405) and the dashboard and OpenAPI JSON', async () => {
    const answers = [
      await fetch(`${h.url}/v2/apis.listApis`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${h.adminKey}` }, body: '{}' }),
      await fetch(`${h.url}/v2/apis.createApi`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${h.adminKey}` }, body: '{' }),
      await fetch(`${h.url}/v2/apis.listApis`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      await fetch(`${h.url}/v2/nope.nothing`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      await fetch(`${h.url}/v2/apis.listApis`, { method: 'GET' }),
      await fetch(`${h.url}/dashboard/api/session`),
      await fetch(`${h.url}/openapi.json`),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 401, 404, 405, 401, 200]);
    for (const res of answers) {
      expect(res.headers.get('content-type')).toMatch(/json/);
      expect(res.headers.get('x-content-type-options'), `${res.url} ${res.status}`).toBe('nosniff');
    }
  });
});
