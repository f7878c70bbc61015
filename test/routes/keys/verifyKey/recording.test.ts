/**
 * Every verification that reaches the verification stage leaves one record (time, API, key,
 * identity, outcome, tags, spent credits), labelled with the request id the caller saw.
 */
import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.verifyKey → verification records', () => {
  const h = useHarness({ verificationsRetained: 100 });
  const stored = async (fromMs: number) => {
    await h.keygate.services.recorder.flush();
    return h.keygate.services.storage.verifications.range({ fromMs, limit: 1_000 });
  };

  test('outcomes, identity, tags and spent credits are recorded per verification', async () => {
    const apiId = await h.createApi();
    await h.createIdentity({ externalId: 'rec_user' });
    const { keyId, key } = await h.createKey({ apiId, externalId: 'rec_user', credits: { remaining: 2 } });
    const since = Date.now();
    const first = await h.verify(key, { tags: ['path=/v1/a'], credits: { cost: 2 } });
    const second = await h.verify(key);
    await h.verify('rec_unknown_key');
    const records = (await stored(since)).filter((r) => r.keyId === keyId);
    expect(records).toEqual([
      expect.objectContaining({ requestId: first.body.meta.requestId, apiId, keyId, externalId: 'rec_user', outcome: 'VALID', tags: ['path=/v1/a'], spentCredits: 2 }),
      expect.objectContaining({ requestId: second.body.meta.requestId, outcome: 'USAGE_EXCEEDED', spentCredits: 0 }),
    ]);
    expect(records[0]!.identityId).toMatch(/^id_/);
    expect(records[1]!.tags).toBeUndefined();
    // An unknown key reaches no verification stage: nothing about it is recorded.
    expect((await stored(since)).some((r) => r.keyId === undefined)).toBe(false);
    expect(await h.keygate.services.storage.verifications.count()).toBe((await stored(0)).length);
  });

  test('a disabled key is recorded as DISABLED; a root key outside its scope records nothing', async () => {
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId, enabled: false });
    const since = Date.now();
    await h.verify(key);
    const outsider = await h.rootKey(['api.api_other.verify_key']);
    await h.call('keys.verifyKey', { key }, { rootKey: outsider });
    expect((await stored(since)).filter((r) => r.keyId === keyId).map((r) => r.outcome)).toEqual(['DISABLED']);
  });

  test('the records are bounded: the oldest give way (VERIFICATIONS_RETAINED)', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi() });
    const answers = [];
    for (let i = 0; i < 130; i++) answers.push(await h.verify(key));
    const kept = await stored(0);
    expect(kept).toHaveLength(100);
    // The newest are the ones kept.
    expect(kept.at(-1)!.requestId).toBe(answers.at(-1)!.body.meta.requestId);
  });
});
