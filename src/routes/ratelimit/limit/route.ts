import { requireAny } from '../../../auth/permissions.js';
import { defineRoute } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { LIMIT_REQUEST, limitPermissions, planCheck, requireLive, resolveNamespaces, type LimitRequest } from '../shared.js';
import { responseSchema } from './response.js';

type Output = ShapeOf<typeof responseSchema>;

export const ratelimitLimit = defineRoute<LimitRequest, Output>({
  name: 'ratelimit.limit',
  responseSchema,
  requestSchema: LIMIT_REQUEST,
  async handle({ input, principal, services }) {
    // Unkey's order: find or create the namespace → 410 if deleted → authorize → override → limiter.
    const namespace = (await resolveNamespaces(principal, services, [input.namespace])).get(input.namespace)!;
    requireLive(namespace);
    requireAny(principal, limitPermissions(namespace.id));
    const planned = await planCheck(services.storage.overrides, namespace, input);
    const [group] = await services.limiter.limit([{ checks: [planned.check] }]);
    const r = group!.results[0]!;
    const out: Output = { success: group!.passed, limit: r.limit, remaining: r.remaining, reset: r.resetAtMs };
    if (planned.overrideId !== undefined) out.overrideId = planned.overrideId;
    return out;
  },
});
