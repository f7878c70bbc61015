import { describe, expect, test } from 'vitest';
import { expectError } from '../support/auth-cases.js';
import { startHarness } from '../support/harness.js';

describe('unexpected failures', () => {
  test('become a 500 envelope that leaks nothing, logged with the request id', async () => {
    const h = await startHarness();
    try {
      const ok = await h.call('apis.createApi', { name: 'before-fault' });
      expect(ok.status).toBe(200);
      // Pull the storage out from under the running server: every lookup now throws.
      await h.keygate.services.storage.close();
      const res = await h.call('apis.createApi', { name: 'after-fault' });
      expectError(res, 500, 'unkey/application/unexpected_error');
      expect(res.body.error.title).toBe('Internal Server Error');
      expect(res.body.error.detail).toBe('An unexpected error occurred. Quote the requestId when reporting it.');
      expect(JSON.stringify(res.body)).not.toMatch(/lmdb|closed|stack|at .*\.js/i);
      const logLine = h.logs().split('\n').filter(Boolean).map((l) => JSON.parse(l))
        .find((l) => l.requestId === res.body.meta.requestId && l.level === 50);
      expect(logLine?.msg).toBe('request failed');
      expect(logLine?.err?.stack).toBeTruthy();
      // The server itself keeps serving what needs no storage.
      const live = await fetch(`${h.url}/v2/liveness`);
      expect(live.status).toBe(200);
    } finally {
      await h.stop();
    }
  });
});
