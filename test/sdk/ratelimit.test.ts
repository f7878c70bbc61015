/**
 * The ratelimit procedures through the official SDK: overrides (set, get, list with the SDK's own
 * paging, delete), limit with an override, multiLimit, and errors as the SDK's classes. Every
 * call is one the SDK makes itself; namespace soft-deletion (no procedure exists) is the only
 * thing done behind the API.
 */
import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { waitForWindowRoom } from '../support/time.js';
import { existingNamespace, fresh, softDeleteNamespace } from '../routes/ratelimit/support.js';
import { sdkFor } from './support.js';

const MINUTE = 60_000;

describe('the official SDK against keygate: ratelimit procedures', () => {
  const h = useHarness();

  test('setOverride, getOverride, limit with the override, deleteOverride', async () => {
    await waitForWindowRoom(MINUTE, 10_000);
    const unkey = sdkFor(h);
    const ns = await existingNamespace(h);
    const { data: set } = await unkey.ratelimit.setOverride({ namespace: ns.name, identifier: 'premium_*', limit: 3, duration: MINUTE });
    expect(set.overrideId).toMatch(/^rlor_/);
    const again = await unkey.ratelimit.setOverride({ namespace: ns.id, identifier: 'premium_*', limit: 2, duration: MINUTE });
    expect(again.data.overrideId).toBe(set.overrideId);

    const got = await unkey.ratelimit.getOverride({ namespace: ns.name, identifier: 'premium_acme' });
    expect(got.data).toEqual({ overrideId: set.overrideId, identifier: 'premium_*', limit: 2, duration: MINUTE });

    const first = (await unkey.ratelimit.limit({ namespace: ns.name, identifier: 'premium_acme', limit: 100, duration: MINUTE })).data;
    expect(first).toMatchObject({ success: true, limit: 2, remaining: 1, overrideId: set.overrideId });
    await unkey.ratelimit.limit({ namespace: ns.name, identifier: 'premium_acme', limit: 100, duration: MINUTE });
    const third = (await unkey.ratelimit.limit({ namespace: ns.name, identifier: 'premium_acme', limit: 100, duration: MINUTE })).data;
    expect(third).toMatchObject({ success: false, limit: 2, remaining: 0, overrideId: set.overrideId });

    expect((await unkey.ratelimit.deleteOverride({ namespace: ns.name, identifier: 'premium_*' })).data).toEqual({});
    const after = (await unkey.ratelimit.limit({ namespace: ns.name, identifier: 'premium_acme', limit: 100, duration: MINUTE })).data;
    expect(after).toMatchObject({ success: true, limit: 100 });
    expect(after.overrideId).toBeUndefined();
  });

  test('listOverrides pages with the SDK iterator (the SDK asks for 10 per page)', async () => {
    const unkey = sdkFor(h);
    const ns = await existingNamespace(h);
    const ids: string[] = [];
    for (let i = 0; i < 13; i++) ids.push((await unkey.ratelimit.setOverride({ namespace: ns.name, identifier: `user_${i}`, limit: i, duration: MINUTE })).data.overrideId);
    ids.sort();
    const firstPage = await unkey.ratelimit.listOverrides({ namespace: ns.name });
    expect(firstPage.result.data.map((o) => o.overrideId)).toEqual(ids.slice(0, 10));
    expect(firstPage.result.pagination).toEqual({ hasMore: true, cursor: ids[10] });
    const seen: string[] = [];
    for await (const page of await unkey.ratelimit.listOverrides({ namespace: ns.id, limit: 4 })) {
      seen.push(...page.result.data.map((o) => o.overrideId));
    }
    expect(seen).toEqual(ids);
  });

  test('multiLimit: all or nothing, with per-item results and overrides', async () => {
    await waitForWindowRoom(MINUTE, 10_000);
    const unkey = sdkFor(h);
    const ns = fresh('sdk-multi');
    const ok = (await unkey.ratelimit.multiLimit([
      { namespace: ns, identifier: 'a', limit: 2, duration: MINUTE },
      { namespace: ns, identifier: 'b', limit: 1, duration: MINUTE, cost: 1 },
    ])).data;
    expect(ok.passed).toBe(true);
    expect(ok.limits.map((l) => [l.identifier, l.passed, l.remaining])).toEqual([['a', true, 1], ['b', true, 0]]);

    const { data: override } = await unkey.ratelimit.setOverride({ namespace: ns, identifier: 'vip', limit: 10, duration: MINUTE });
    const failed = (await unkey.ratelimit.multiLimit([
      { namespace: ns, identifier: 'vip', limit: 1, duration: MINUTE },
      { namespace: ns, identifier: 'b', limit: 1, duration: MINUTE },
    ])).data;
    expect(failed.passed).toBe(false);
    expect(failed.limits[0]).toMatchObject({ passed: true, limit: 10, remaining: 10, overrideId: override.overrideId });
    expect(failed.limits[1]).toMatchObject({ passed: false, remaining: 0 });
  });

  test('errors arrive as the SDK error classes', async () => {
    const unkey = sdkFor(h);
    const ns = await existingNamespace(h);
    const missingNs = await unkey.ratelimit.setOverride({ namespace: fresh('nope'), identifier: 'u', limit: 1, duration: MINUTE }).catch((e: unknown) => e);
    expect(missingNs).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((missingNs as errors.NotFoundErrorResponse).data$.error.type).toBe('https://unkey.com/docs/errors/unkey/data/ratelimit_namespace_not_found');

    const missingOverride = await unkey.ratelimit.getOverride({ namespace: ns.name, identifier: 'nobody' }).catch((e: unknown) => e);
    expect(missingOverride).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((missingOverride as errors.NotFoundErrorResponse).data$.error.type).toBe('https://unkey.com/docs/errors/unkey/data/ratelimit_override_not_found');
    await expect(unkey.ratelimit.deleteOverride({ namespace: ns.name, identifier: 'nobody' })).rejects.toBeInstanceOf(errors.NotFoundErrorResponse);

    const limited = sdkFor(h, await h.rootKey(['ratelimit.*.limit']));
    const forbidden = await limited.ratelimit.setOverride({ namespace: ns.name, identifier: 'u', limit: 1, duration: MINUTE }).catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect((forbidden as errors.ForbiddenErrorResponse).data$.error.detail).toContain(`ratelimit.${ns.id}.set_override`);
    await expect(limited.ratelimit.listOverrides({ namespace: ns.name })).rejects.toBeInstanceOf(errors.ForbiddenErrorResponse);
    await expect(limited.ratelimit.deleteOverride({ namespace: ns.name, identifier: 'u' })).rejects.toBeInstanceOf(errors.ForbiddenErrorResponse);
    await expect(sdkFor(h, 'kgroot_not_a_root_key').ratelimit.multiLimit([{ namespace: ns.name, identifier: 'u', limit: 1, duration: MINUTE }]))
      .rejects.toBeInstanceOf(errors.UnauthorizedErrorResponse);

    const empty = await unkey.ratelimit.multiLimit([]).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect((empty as errors.BadRequestErrorResponse).data$.error.errors.map((e) => e.location)).toContain('/minItems');

    const gone = await existingNamespace(h);
    await softDeleteNamespace(h, gone.name);
    const multiGone = await unkey.ratelimit.multiLimit([{ namespace: gone.name, identifier: 'u', limit: 1, duration: MINUTE }]).catch((e: unknown) => e);
    expect(multiGone).toBeInstanceOf(errors.GoneErrorResponse);
    await expect(unkey.ratelimit.limit({ namespace: gone.id, identifier: 'u', limit: 1, duration: MINUTE })).rejects.toBeInstanceOf(errors.GoneErrorResponse);
    await expect(unkey.ratelimit.getOverride({ namespace: gone.name, identifier: 'u' })).rejects.toBeInstanceOf(errors.NotFoundErrorResponse);
  });
});
