import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.createIdentity → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'identities.createIdentity', () => ({ externalId: 'forbidden-1' }), 'identity.*.create_identity');
  describeForbiddenCase(h, 'identities.createIdentity', () => ({ externalId: 'forbidden-2' }), 'identity.*.create_identity',
    ['identity.*.update_identity', 'api.*.create_api']);

  test('a forbidden call creates nothing, so the externalId stays free', async () => {
    const key = await h.rootKey(['identity.*.read_identity']);
    const res = await h.call('identities.createIdentity', { externalId: 'still-free' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe("Missing permission: 'identity.*.create_identity'.");
    expect(await h.keygate.services.storage.identities.findByExternalId(WORKSPACE_ID, 'still-free')).toBeNull();
    expect((await h.call('identities.createIdentity', { externalId: 'still-free' })).status).toBe(200);
  });
});
