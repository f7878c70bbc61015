import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { newId } from '../../../util/ids.js';
import { defineRoute } from '../../define.js';
import { MAX_SAFE } from '../../schemas.js';

interface Input { namespace: string; identifier: string; limit: number; duration: number; cost: number }
interface Output { success: boolean; limit: number; remaining: number; reset: number; overrideId?: string }

/** Counters of ratelimit.limit: per namespace id and identifier (the duration is added by the limiter). */
export const namespaceCounter = (namespaceId: string, identifier: string): string => `ns:${namespaceId}:${identifier}`;

export const ratelimitLimit = defineRoute<Input, Output>({
  name: 'ratelimit.limit',
  requestSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['namespace', 'identifier', 'limit', 'duration'],
    properties: {
      namespace: { type: 'string', minLength: 1, maxLength: 512 },
      identifier: { type: 'string', minLength: 1, maxLength: 512 },
      limit: { type: 'integer', minimum: 1, maximum: MAX_SAFE },
      duration: { type: 'integer', minimum: 1000, maximum: 2_592_000_000 },
      cost: { type: 'integer', minimum: 0, maximum: MAX_SAFE, default: 1 },
    },
  },
  async handle({ input, principal, services }) {
    const { namespaces } = services.storage;
    let namespace = await namespaces.find(principal.workspaceId, input.namespace);
    if (!namespace) {
      // Namespaces are created on first use, which needs its own permission.
      requireAny(principal, ['ratelimit.*.create_namespace']);
      namespace = await namespaces.getOrCreate(principal.workspaceId, input.namespace, () => ({
        id: newId('rlns'), workspaceId: principal.workspaceId, name: input.namespace, createdAt: services.now(),
      }));
    }
    if (namespace.deletedAt !== undefined) {
      throw new ApiError('err:unkey:data:ratelimit_namespace_gone', 'This namespace has been deleted.');
    }
    requireAny(principal, ['ratelimit.*.limit', `ratelimit.${namespace.id}.limit`]);
    const [group] = await services.limiter.limit([{
      checks: [{ counter: namespaceCounter(namespace.id, input.identifier), limit: input.limit, durationMs: input.duration, cost: input.cost }],
    }]);
    const r = group!.results[0]!;
    return { success: group!.passed, limit: r.limit, remaining: r.remaining, reset: r.resetAtMs };
  },
});
