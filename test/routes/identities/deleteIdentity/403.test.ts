import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.deleteIdentity → 403', () => {
  const h = useHarness();
  let n = 0;
  const body = async () => ({ identity: await h.createIdentity({ externalId: `guarded-${n++}` }) });

  describeForbiddenCase(h, 'identities.deleteIdentity', body, 'identity.*.delete_identity');
  describeForbiddenCase(h, 'identities.deleteIdentity', body, 'identity.*.delete_identity', ['identity.*.update_identity', 'identity.*.create_identity']);

  test('the detail is exact and a forbidden call deletes nothing', async () => {
    const { identity } = await body();
    const key = await h.rootKey(['identity.*.read_identity']);
    const res = await h.call('identities.deleteIdentity', { identity }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe("Missing permission: 'identity.*.delete_identity'.");
    expect(await h.keygate.services.storage.identities.get(identity)).not.toBeNull();
    expect((await h.call('identities.getIdentity', { identity })).status).toBe(200);
  });

  test('identity.<id>.delete_identity does not suffice (no per-identity tuple)', async () => {
    const { identity } = await body();
    const key = await h.rootKey([`identity.${identity}.delete_identity`]);
    expectError(await h.call('identities.deleteIdentity', { identity }, { rootKey: key }), 403, 'forbidden');
  });

  test('checked first: an unknown identity gives 403 without the permission', async () => {
    const key = await h.rootKey(['identity.*.read_identity']);
    expectError(await h.call('identities.deleteIdentity', { identity: 'nobody' }, { rootKey: key }), 403, 'forbidden');
  });
});
