import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.updateIdentity → 403', () => {
  const h = useHarness();
  let identityId: string | undefined;
  const body = async () => {
    identityId ??= await h.createIdentity({ externalId: 'guarded', meta: { a: 1 } });
    return { identity: identityId, meta: { a: 2 } };
  };

  describeForbiddenCase(h, 'identities.updateIdentity', body, 'identity.*.update_identity');

  test('the detail is exact and a forbidden call changes nothing', async () => {
    const { identity } = await body();
    const key = await h.rootKey(['identity.*.read_identity', 'identity.*.create_identity']);
    const res = await h.call('identities.updateIdentity', { identity, meta: { a: 3 } }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe("Missing permission: 'identity.*.update_identity'.");
    expect((await h.keygate.services.storage.identities.get(identity))?.meta).toEqual({ a: 1 });
  });

  test('there is no per-identity tuple: identity.<id>.update_identity does not suffice', async () => {
    const { identity } = await body();
    const key = await h.rootKey([`identity.${identity}.update_identity`]);
    expectError(await h.call('identities.updateIdentity', { identity, meta: { a: 4 } }, { rootKey: key }), 403, 'forbidden');
  });

  test('checked first: an unknown identity or duplicate limit names still give 403', async () => {
    const key = await h.rootKey(['identity.*.read_identity']);
    expectError(await h.call('identities.updateIdentity', { identity: 'nobody' }, { rootKey: key }), 403, 'forbidden');
    const dupes = [{ name: 'same', limit: 1, duration: 1000, autoApply: true }, { name: 'same', limit: 1, duration: 1000, autoApply: true }];
    expectError(await h.call('identities.updateIdentity', { identity: 'nobody', ratelimits: dupes }, { rootKey: key }), 403, 'forbidden');
  });
});
