import { requireAny } from '../../../auth/permissions.js';
import { identityResponse, type IdentityResponse } from '../../../keys/describe.js';
import { defineListRoute, type RequestOf } from '../../define.js';
import { LIST_CURSOR, LIST_LIMIT, toPage } from '../../pagination.js';
import { IDENTITY } from '../../../shapes/responses.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: LIST_LIMIT,
    // A plain identity id, inclusive lower bound. Bounded (as Unkey bounds listPermissions'
    // cursor) so it always fits a storage key.
    cursor: LIST_CURSOR,
    search: { type: 'string', maxLength: 256 },
  },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const identitiesListIdentities = defineListRoute<Input, IdentityResponse>({
  name: 'identities.listIdentities',
  // One identity of the page.
  responseSchema: IDENTITY,
  requestSchema,
  async handle({ input, principal, services }) {
    const search = input.search?.trim();
    const records = await services.storage.identities.list(principal.workspaceId, {
      limit: input.limit + 1,
      ...(input.cursor ? { cursor: input.cursor } : {}),
      ...(search ? { search } : {}),
    });
    // As in Unkey, authorization is per returned identity: one the root key may not read fails
    // the whole request, and an empty page needs no permission.
    for (const identity of records.slice(0, input.limit)) {
      requireAny(principal, ['identity.*.read_identity', `identity.${identity.id}.read_identity`]);
    }
    return toPage(records, input.limit, identityResponse);
  },
});
