import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { MAX_WILDCARD_OVERRIDES } from '../../../ratelimit/overrides.js';
import type { Services } from '../../../wiring/services.js';
import { newId } from '../../../util/ids.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { MAX_SAFE } from '../../schemas.js';
import { existingNamespace, IDENTIFIER, NAMESPACE } from '../shared.js';
import { responseSchema } from './response.js';
import { target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

/** A new pattern must fit under the namespace's cap; replacing an existing one always does. */
async function assertRoomForWildcard(services: Services, namespaceId: string, identifier: string): Promise<void> {
  const live = await services.storage.overrides.wildcards(namespaceId);
  if (live.length < MAX_WILDCARD_OVERRIDES || live.some((o) => o.identifier === identifier)) return;
  throw new ApiError('err:unkey:application:invalid_input', `This namespace already holds ${MAX_WILDCARD_OVERRIDES} wildcard overrides, the most it may hold.`, {
    issues: [{ location: '/properties/identifier', message: `identifier: at most ${MAX_WILDCARD_OVERRIDES} overrides with '*' per namespace`, fix: 'Delete a wildcard override you no longer need, or set one for an exact identifier.' }],
  });
}

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['namespace', 'identifier', 'limit', 'duration'],
  properties: {
    namespace: NAMESPACE,
    // An exact identifier, or a pattern where `*` is any run of characters.
    identifier: IDENTIFIER,
    // 0 blocks every matching request (keygate answers success:false; Unkey answers 500).
    limit: { type: 'integer', minimum: 0, maximum: MAX_SAFE },
    duration: { type: 'integer', minimum: 1000, maximum: MAX_SAFE },
  },
} as const;
type Input = RequestOf<typeof requestSchema>;

/**
 * Upsert on (namespace, identifier): an existing override keeps its id; a deleted one is revived
 * with its old id (Unkey keeps it deleted, which its own docs call a bug). The namespace must
 * exist: overrides never create one. Takes effect on the next ratelimit.limit (no cache to evict).
 */
export const ratelimitSetOverride = defineRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'ratelimit.setOverride',
  audited: true,
  responseSchema,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    const namespace = await existingNamespace(principal, services, input.namespace);
    requireAny(principal, ['ratelimit.*.set_override', `ratelimit.${namespace.id}.set_override`]);
    if (input.identifier.includes('*')) await assertRoomForWildcard(services, namespace.id, input.identifier);
    const overrideId = newId('rlor');
    const event = ctx.audit({
      targets: [target('namespace', namespace.id, namespace.name), target('override', overrideId, input.identifier)],
      summary: `set the override of '${input.identifier}'`, changes: changesOf(input, ['namespace']),
    });
    const record = await services.storage.overrides.set({
      workspaceId: principal.workspaceId, namespaceId: namespace.id, identifier: input.identifier, limit: input.limit, duration: input.duration,
    }, services.now(), overrideId, event);
    return { overrideId: record.id };
  },
});
