import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.createRootKey → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'rootKeys.createRootKey', () => ({ name: 'x', permissions: ['api.*.read_api'] }), 'root_key.*.create_root_key', ['root_key.*.read_root_key', 'api.*.read_api']);

  test('no escalation: a key cannot grant what it does not hold, and the 403 names every such permission', async () => {
    const creator = await h.rootKey(['root_key.*.create_root_key', 'api.*.read_api', 'api.api_1.create_key']);
    const before = (await h.keygate.services.storage.rootKeys.list()).length;
    const res = await h.call('rootKeys.createRootKey', {
      name: 'escalated', permissions: ['api.*.read_api', 'api.*.create_key', 'api.api_2.create_key', 'root_key.*.revoke_root_key'],
    }, { rootKey: creator });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain("'api.*.create_key'");
    expect(res.body.error.detail).toContain("'api.api_2.create_key'");
    expect(res.body.error.detail).toContain("'root_key.*.revoke_root_key'");
    expect(res.body.error.detail).not.toContain("'api.*.read_api'");
    expect((await h.keygate.services.storage.rootKeys.list()).length).toBe(before);
  });

  test('a key cannot give a new key create_root_key unless it holds it (it always does here) nor anything wider than itself', async () => {
    const creator = await h.rootKey(['root_key.*.create_root_key']);
    const ok = await h.call('rootKeys.createRootKey', { name: 'same', permissions: ['root_key.*.create_root_key'] }, { rootKey: creator });
    expect(ok.status).toBe(200);
    const wider = await h.call('rootKeys.createRootKey', { name: 'wider', permissions: ['root_key.*.read_root_key'] }, { rootKey: creator });
    expectError(wider, 403, 'forbidden');
  });
});
