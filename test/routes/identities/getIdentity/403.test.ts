import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.getIdentity → 403', () => {
  const h = useHarness();
  let identityId: string | undefined;
  const body = async () => {
    identityId ??= await h.createIdentity({ externalId: 'guarded', meta: { secret: true } });
    return { identity: identityId };
  };

  describeForbiddenCase(h, 'identities.getIdentity', body, 'identity.*.read_identity', ['identity.*.create_identity', 'identity.*.update_identity']);

  test('the detail names the wildcard and the identity-id tuple, also when asked by externalId', async () => {
    const { identity: id } = await body();
    const key = await h.rootKey(['api.*.read_api']);
    const res = await h.call('identities.getIdentity', { identity: 'guarded' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.title).toBe('Forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'identity.*.read_identity' or 'identity.${id}.read_identity'.`);
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  test('a root key scoped to one identity reads it but not another', async () => {
    const mine = await h.createIdentity({ externalId: 'mine' });
    const other = await h.createIdentity({ externalId: 'other' });
    const key = await h.rootKey([`identity.${mine}.read_identity`]);
    expect((await h.call('identities.getIdentity', { identity: mine }, { rootKey: key })).status).toBe(200);
    const denied = await h.call('identities.getIdentity', { identity: 'other' }, { rootKey: key });
    expectError(denied, 403, 'forbidden');
    expect(denied.body.error.detail).toContain(`identity.${other}.read_identity`);
  });
});
