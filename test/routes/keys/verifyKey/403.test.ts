import { describe, expect, test } from 'vitest';
import { describeForbiddenCase } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.verifyKey → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'keys.verifyKey', () => ({ key: 'sk_anything' }), 'api.*.verify_key', ['api.*.read_api']);

  test('the 403 comes before any lookup: same answer for an existing key', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi() });
    const noVerify = await h.rootKey(['api.*.create_key']);
    const known = await h.call('keys.verifyKey', { key }, { rootKey: noVerify });
    const unknown = await h.call('keys.verifyKey', { key: `${key}x` }, { rootKey: noVerify });
    expect(known.status).toBe(403);
    expect(unknown.status).toBe(403);
    expect(known.body.error.detail).toBe(unknown.body.error.detail);
  });
});
