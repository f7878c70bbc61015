import { API_NOT_FOUND_DETAIL } from '../live-api.js';
import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { API_ID_OF_API } from '../../schemas.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { EMPTY_DATA } from '../../../shapes/responses.js';
import { target } from '../../../audit/targets.js';

const NOT_FOUND = API_NOT_FOUND_DETAIL;

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiId'],
  properties: { apiId: API_ID_OF_API },
} as const;
type Input = RequestOf<typeof requestSchema>;

/**
 * Soft delete: the API's keys stay stored but stop verifying (verifyKey, like every key lookup,
 * requires a live API). Not idempotent: a second delete is a 404, as in Unkey.
 */
export const apisDeleteApi = defineRoute<Input, ShapeOf<typeof EMPTY_DATA>>({
  name: 'apis.deleteApi',
  audited: true,
  responseSchema: EMPTY_DATA,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    // Checked before the lookup, so a 403 says nothing about whether the API exists.
    requireAny(principal, ['api.*.delete_api', `api.${input.apiId}.delete_api`]);
    const api = await services.storage.apis.get(input.apiId);
    if (!api || api.workspaceId !== principal.workspaceId) throw new ApiError('err:unkey:data:api_not_found', NOT_FOUND);
    // markDeleted is false when the API is already deleted (also when a concurrent call won).
    const event = ctx.audit({ targets: [target('api', api.id, api.name)], summary: `deleted API '${api.name}'` });
    if (!(await services.storage.apis.markDeleted(api.id, services.now(), event))) throw new ApiError('err:unkey:data:api_not_found', NOT_FOUND);
    return {};
  },
});
