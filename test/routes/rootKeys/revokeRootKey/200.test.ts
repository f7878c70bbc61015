import { describe, expect, test } from 'vitest';
import { hashKey } from '../../../../src/keys/format.js';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.revokeRootKey → 200', () => {
  const h = useHarness();

  const create = async (permissions: string[]): Promise<{ rootKeyId: string; key: string }> =>
    (await h.call('rootKeys.createRootKey', { name: 'victim', permissions })).body.data;

  test('the key stops authenticating at once; revoking again is a no-op that keeps the first time', async () => {
    const { rootKeyId, key } = await create(['api.*.create_api']);
    expect((await h.call('apis.createApi', { name: 'before' }, { rootKey: key })).status).toBe(200);

    const res = await h.call('rootKeys.revokeRootKey', { rootKeyId });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({});
    expect((await h.call('apis.createApi', { name: 'after' }, { rootKey: key })).status).toBe(401);

    const first = (await h.keygate.services.storage.rootKeys.get(rootKeyId))!.revokedAt;
    expect(first).toEqual(expect.any(Number));
    expect((await h.call('rootKeys.revokeRootKey', { rootKeyId })).status).toBe(200);
    expect((await h.keygate.services.storage.rootKeys.get(rootKeyId))!.revokedAt).toBe(first);
  });

  test('a key may revoke keys whose permissions it holds, and itself', async () => {
    const revoker = await h.rootKey(['root_key.*.revoke_root_key', 'api.*.read_api']);
    const { rootKeyId } = await create(['api.*.read_api']);
    expect((await h.call('rootKeys.revokeRootKey', { rootKeyId }, { rootKey: revoker })).status).toBe(200);

    const self = (await h.keygate.services.storage.rootKeys.findByHash(hashKey(revoker)))!;
    expect((await h.call('rootKeys.revokeRootKey', { rootKeyId: self.id }, { rootKey: revoker })).status).toBe(200);
    expect((await h.call('rootKeys.listRootKeys', {}, { rootKey: revoker })).status).toBe(401);
  });
});
