import { ApiError } from '../../errors/api-error.js';
import type { Principal } from '../../auth/permissions.js';
import type { Services } from '../../wiring/services.js';
import type { ApiRecord } from '../../storage/records.js';

export const API_NOT_FOUND_DETAIL = 'The requested API does not exist or has been deleted.';

/** The API if it exists, is not deleted and belongs to the caller's workspace; else the 404. */
export async function findLiveApi(services: Services, principal: Principal, apiId: string): Promise<ApiRecord> {
  const api = await services.storage.apis.get(apiId);
  if (!api || api.deletedAt !== undefined || api.workspaceId !== principal.workspaceId) {
    throw new ApiError('err:unkey:data:api_not_found', API_NOT_FOUND_DETAIL);
  }
  return api;
}
