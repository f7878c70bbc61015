import { describe, expect, test } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.deleteApi → 401', () => {
  const h = useHarness();
  // A fresh API per call: the revoked-key case first calls with a valid key.
  describeUnauthorizedCases(h, 'apis.deleteApi', async () => ({ apiId: await h.createApi('guarded') }));

  test('an unauthenticated call deletes nothing', async () => {
    const apiId = await h.createApi('kept');
    expect((await h.call('apis.deleteApi', { apiId }, { rootKey: null })).status).toBe(401);
    expect((await h.keygate.services.storage.apis.get(apiId))?.deletedAt).toBeUndefined();
    expect((await h.call('apis.getApi', { apiId })).status).toBe(200);
  });
});
