import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { findLiveKey, KEY_ID, KEY_NOT_FOUND } from '../live-key.js';
import { EMPTY_DATA } from '../../../shapes/responses.js';
import { target } from '../../../audit/targets.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['keyId'],
  properties: { keyId: KEY_ID, permanent: { type: 'boolean', default: false } },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const keysDeleteKey = defineRoute<Input, ShapeOf<typeof EMPTY_DATA>>({
  name: 'keys.deleteKey',
  audited: true,
  responseSchema: EMPTY_DATA,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    // Looked up first: the acceptable tuples name the key's API (Unkey's order: 404 before 403).
    const key = await findLiveKey(services, principal, input.keyId);
    requireAny(principal, ['api.*.delete_key', `api.${key.apiId}.delete_key`]);
    // Unkey soft-deletes unless `permanent`; a soft-deleted key is invisible to every procedure
    // and never verifies again, so keygate removes it either way: the observable result is the same.
    // A concurrent delete that won the race leaves nothing to delete: answered as the 404 it is.
    const event = ctx.audit({ targets: [target('key', key.id, key.name), target('api', key.apiId)], summary: 'deleted key' });
    if (!(await services.storage.keys.delete(key.id, event))) throw new ApiError('err:unkey:data:key_not_found', KEY_NOT_FOUND);
    return {};
  },
});
