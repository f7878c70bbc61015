import { requireAny } from '../../../auth/permissions.js';
import { defineListRoute, type RequestOf } from '../../define.js';
import { LIST_CURSOR, toPage } from '../../pagination.js';
import { existingNamespace, NAMESPACE, overrideResponse, type OverrideResponse } from '../shared.js';
import { RATELIMIT_OVERRIDE } from '../../../shapes/responses.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['namespace'],
  properties: {
    namespace: NAMESPACE,
    cursor: LIST_CURSOR,
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  },
} as const;
type Input = RequestOf<typeof requestSchema>;

/** Live overrides of a namespace in id order; Unkey's server default page is 50 (its schema says 10). */
export const ratelimitListOverrides = defineListRoute<Input, OverrideResponse>({
  name: 'ratelimit.listOverrides',
  // One override of the page.
  responseSchema: RATELIMIT_OVERRIDE,
  requestSchema,
  async handle({ input, principal, services }) {
    // A soft-deleted namespace still lists its overrides, as in Unkey.
    const namespace = await existingNamespace(principal, services, input.namespace, true);
    requireAny(principal, ['ratelimit.*.read_override', `ratelimit.${namespace.id}.read_override`]);
    const records = await services.storage.overrides.list(namespace.id, {
      limit: input.limit + 1,
      ...(input.cursor ? { cursor: input.cursor } : {}),
    });
    return toPage(records, input.limit, overrideResponse);
  },
});
