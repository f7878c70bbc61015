import { hasAny, requireAny } from '../../../auth/permissions.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { LIMIT_REQUEST, limitPermissions, planCheck, requireLive, resolveNamespaces } from '../shared.js';
import { responseSchema } from './response.js';

type LimitOutcome = ShapeOf<typeof responseSchema>['limits'][number];

// The body is a JSON array (Unkey's shape); its items are as strict as ratelimit.limit's body.
const requestSchema = { type: 'array', minItems: 1, maxItems: 100, items: LIMIT_REQUEST } as const;

/**
 * Several ratelimit.limit checks, all or nothing: every item goes into ONE limiter group, so the
 * batch is decided at one timestamp and either every cost is consumed or none. Each item is the
 * same request ratelimit.limit takes and resolves namespace and override the same way (shared.ts).
 */
export const ratelimitMultiLimit = defineRoute<RequestOf<typeof requestSchema>, ShapeOf<typeof responseSchema>>({
  name: 'ratelimit.multiLimit',
  responseSchema,
  requestSchema,
  async handle({ input, principal, services }) {
    const namespaces = await resolveNamespaces(principal, services, input.map((item) => item.namespace));
    // Unkey's order: create missing namespaces → authorize every namespace → 410 if any is deleted.
    if (!hasAny(principal, ['ratelimit.*.limit'])) {
      for (const namespace of namespaces.values()) requireAny(principal, limitPermissions(namespace.id));
    }
    for (const namespace of namespaces.values()) requireLive(namespace);
    const planned = await Promise.all(input.map((item) => planCheck(services.storage.overrides, namespaces.get(item.namespace)!, item)));
    const [group] = await services.limiter.limit([{ checks: planned.map((p) => p.check) }]);
    const limits = input.map((item, i): LimitOutcome => {
      const r = group!.results[i]!;
      const out: LimitOutcome = {
        namespace: item.namespace, identifier: item.identifier, limit: r.limit, remaining: r.remaining, reset: r.resetAtMs, passed: r.passed,
      };
      if (planned[i]!.overrideId !== undefined) out.overrideId = planned[i]!.overrideId;
      return out;
    });
    return { passed: group!.passed, limits };
  },
});
