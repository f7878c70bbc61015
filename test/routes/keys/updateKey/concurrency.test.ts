/**
 * updateKey changes only the fields it names, on the key as stored when it writes: updates of
 * other fields that run at the same time (addPermissions, addRoles, other updateKey calls) stay.
 */
import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.updateKey → concurrent changes', () => {
  const h = useHarness();

  test('updates of different fields racing with addPermissions all survive', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    await h.call('permissions.createRole', { name: 'race-role' });
    const slugs = Array.from({ length: 10 }, (_, i) => `race.p${i}`);
    const answers = await Promise.all([
      ...slugs.map((slug) => h.call('keys.addPermissions', { keyId, permissions: [slug] })),
      h.call('keys.updateKey', { keyId, name: 'renamed' }),
      h.call('keys.updateKey', { keyId, meta: { tier: 'gold' } }),
      h.call('keys.addRoles', { keyId, roles: ['race-role'] }),
      h.call('keys.updateKey', { keyId, enabled: false }),
    ]);
    for (const a of answers) expect(a.status).toBe(200);
    const key = (await h.call('keys.getKey', { keyId })).body.data;
    expect(key).toMatchObject({ name: 'renamed', meta: { tier: 'gold' }, enabled: false, roles: ['race-role'] });
    expect([...key.permissions].sort()).toEqual([...slugs].sort());
  });
});
