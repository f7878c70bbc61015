import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.createApi → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'apis.createApi', () => ({ name: 'payments' }), 'api.*.create_api');
  describeForbiddenCase(h, 'apis.createApi', () => ({ name: 'payments' }), 'api.*.create_api', ['api.*.read_api', 'api.*.create_key']);

  test('a root key with no permissions at all is forbidden, not unauthorized', async () => {
    const key = await h.rootKey([]);
    const res = await h.call('apis.createApi', { name: 'payments' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.title).toBe('Forbidden');
    expect(res.body.error.detail).toBe("Missing permission: 'api.*.create_api'.");
  });
});
