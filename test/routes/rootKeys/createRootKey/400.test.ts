import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.createRootKey → 400', () => {
  const h = useHarness();

  test.each([
    ['no name', { permissions: ['api.*.read_api'] }, '/required'],
    ['an empty name', { name: '', permissions: ['api.*.read_api'] }, '/properties/name/minLength'],
    ['no permissions', { name: 'x' }, '/required'],
    ['an empty permission list', { name: 'x', permissions: [] }, '/properties/permissions/minItems'],
    ['an unknown property', { name: 'x', permissions: ['api.*.read_api'], expires: 1 }, '/additionalProperties'],
  ])('%s is rejected by the schema', async (_name, body, location) => {
    const res = await h.call('rootKeys.createRootKey', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test('permissions outside the catalogue are named, one issue each, and nothing is created', async () => {
    const before = (await h.keygate.services.storage.rootKeys.list()).length;
    const res = await h.call('rootKeys.createRootKey', { name: 'x', permissions: ['api.*.read_api', 'api.*.fly', 'root_key.rk_1.read_root_key', '*'] });
    expectError(res, 400, 'unkey/application/invalid_input');
    const issues = res.body.error.errors;
    expect(issues.map((e: any) => e.location)).toEqual(['/permissions/1', '/permissions/2', '/permissions/3']);
    expect(issues[0].message).toContain('fly');
    expect(issues[1].message).toContain('root_key.*.read_root_key');
    expect((await h.keygate.services.storage.rootKeys.list()).length).toBe(before);
  });
});
