import { hasAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { findOverride } from '../../../ratelimit/overrides.js';
import { defineRoute } from '../../define.js';
import { OVERRIDE_REQUEST, existingNamespace, overrideResponse, type OverrideRequest, type OverrideResponse } from '../shared.js';
import { RATELIMIT_OVERRIDE } from '../../../shapes/responses.js';

const notFound = (): ApiError => new ApiError('err:unkey:data:ratelimit_override_not_found', 'This override does not exist.');

/**
 * The override ratelimit.limit would apply to `identifier`: the same matcher (exact first, then the
 * most specific pattern), so asking for `user_42` can answer the `user_*` override, as in Unkey.
 */
export const ratelimitGetOverride = defineRoute<OverrideRequest, OverrideResponse>({
  name: 'ratelimit.getOverride',
  // The override ratelimit.limit would apply to the identifier (possibly a matching pattern).
  responseSchema: RATELIMIT_OVERRIDE,
  requestSchema: OVERRIDE_REQUEST,
  async handle({ input, principal, services }) {
    const namespace = await existingNamespace(principal, services, input.namespace);
    const override = await findOverride(services.storage.overrides, namespace.id, input.identifier);
    if (!override) throw notFound();
    // Unkey masks a missing read permission as "not found", so a key cannot probe for overrides.
    if (!hasAny(principal, ['ratelimit.*.read_override', `ratelimit.${namespace.id}.read_override`])) throw notFound();
    return overrideResponse(override);
  },
});
