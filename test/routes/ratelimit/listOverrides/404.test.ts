import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { fresh } from '../support.js';

describe('ratelimit.listOverrides → 404', () => {
  const h = useHarness();

  test('an unknown namespace is a 404 before any permission check', async () => {
    for (const rootKey of [h.adminKey, await h.rootKey(['ratelimit.*.limit'])]) {
      const res = await h.call('ratelimit.listOverrides', { namespace: fresh('unknown') }, { rootKey });
      expectError(res, 404, 'unkey/data/ratelimit_namespace_not_found');
      expect(res.body.error.detail).toBe('This namespace does not exist.');
    }
  });
});
