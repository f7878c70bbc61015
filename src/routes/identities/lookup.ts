/** The `identity` parameter of get/update/deleteIdentity: an identity id or an externalId. */
import { ApiError } from '../../errors/api-error.js';
import type { IdentityRecord } from '../../storage/records.js';
import type { Services } from '../../wiring/services.js';

/** Unkey's schema: any non-empty string. */
export const IDENTITY_PARAM = { type: 'string', minLength: 1 } as const;

/** Longer than any identity id or externalId (1..255), so it cannot name an identity. */
const LONGEST_NAME = 255;

/** The caller's identity with this id (preferred) or externalId, or 404 identity_not_found. */
export async function findIdentity(services: Services, workspaceId: string, identity: string): Promise<IdentityRecord> {
  const { identities } = services.storage;
  if (identity.length <= LONGEST_NAME) {
    const byId = await identities.get(identity);
    if (byId && byId.workspaceId === workspaceId) return byId;
    const byExternalId = await identities.findByExternalId(workspaceId, identity);
    if (byExternalId) return byExternalId;
  }
  throw new ApiError('err:unkey:data:identity_not_found', 'This identity does not exist.');
}
