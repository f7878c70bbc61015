import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { defineRoute } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { OVERRIDE_REQUEST, existingNamespace, type OverrideRequest } from '../shared.js';
import { EMPTY_DATA } from '../../../shapes/responses.js';
import { target } from '../../../audit/targets.js';

/**
 * Soft-deletes the override whose identifier is exactly `identifier` (a pattern is deleted by
 * naming the pattern, never by an identifier it matches). Unkey's order: namespace 404 →
 * permission 403 → override 404.
 */
export const ratelimitDeleteOverride = defineRoute<OverrideRequest, ShapeOf<typeof EMPTY_DATA>>({
  name: 'ratelimit.deleteOverride',
  audited: true,
  responseSchema: EMPTY_DATA,
  requestSchema: OVERRIDE_REQUEST,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    const namespace = await existingNamespace(principal, services, input.namespace);
    requireAny(principal, ['ratelimit.*.delete_override', `ratelimit.${namespace.id}.delete_override`]);
    // The store puts the override's id in its target: it finds the override by identifier.
    const event = ctx.audit({
      targets: [target('namespace', namespace.id, namespace.name), target('override', '', input.identifier)], summary: `deleted the override of '${input.identifier}'`,
    });
    if (!(await services.storage.overrides.delete(namespace.id, input.identifier, services.now(), event))) {
      throw new ApiError('err:unkey:data:ratelimit_override_not_found', 'This override does not exist.');
    }
    return {};
  },
});
