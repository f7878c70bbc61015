import { requireAny } from '../../../auth/permissions.js';
import { identityResponse, type IdentityResponse } from '../../../keys/describe.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { IDENTITY_PARAM, findIdentity } from '../lookup.js';
import { IDENTITY } from '../../../shapes/responses.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['identity'],
  properties: { identity: IDENTITY_PARAM },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const identitiesGetIdentity = defineRoute<Input, IdentityResponse>({
  name: 'identities.getIdentity',
  responseSchema: IDENTITY,
  requestSchema,
  async handle({ input, principal, services }) {
    // As in Unkey, the lookup comes first (404 before 403): the permission may name the identity id.
    const identity = await findIdentity(services, principal.workspaceId, input.identity);
    requireAny(principal, ['identity.*.read_identity', `identity.${identity.id}.read_identity`]);
    return identityResponse(identity);
  },
});
