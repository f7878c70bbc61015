import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.listIdentities → 403', () => {
  const h = useHarness();
  let created = false;
  const body = async () => {
    if (!created) {
      await h.createIdentity({ externalId: 'guarded' });
      created = true;
    }
    return {};
  };

  describeForbiddenCase(h, 'identities.listIdentities', body, 'identity.*.read_identity', ['identity.*.create_identity']);

  test('one identity the root key may not read fails the whole page, naming that identity', async () => {
    const a = await h.createIdentity({ externalId: 'pair-a' });
    const b = await h.createIdentity({ externalId: 'pair-b' });
    const [readable, hidden] = [a, b];
    const key = await h.rootKey([`identity.${readable}.read_identity`]);
    const res = await h.call('identities.listIdentities', { search: 'pair-' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.title).toBe('Forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'identity.*.read_identity' or 'identity.${hidden}.read_identity'.`);
    expect(res.body.pagination).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain('pair-a');
  });

  test('only the returned rows are checked: the extra row fetched for the cursor is not', async () => {
    const ids = [await h.createIdentity({ externalId: 'row-1' }), await h.createIdentity({ externalId: 'row-2' })].sort();
    const key = await h.rootKey([`identity.${ids[0]}.read_identity`]);
    const res = await h.call('identities.listIdentities', { search: 'row-', limit: 1 }, { rootKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data.map((i: any) => i.id)).toEqual([ids[0]]);
    expect(res.body.pagination).toEqual({ hasMore: true, cursor: ids[1] });
    expectError(await h.call('identities.listIdentities', { search: 'row-', cursor: ids[1] }, { rootKey: key }), 403, 'forbidden');
  });
});
