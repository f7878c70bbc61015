import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { IDENTITY_PARAM, findIdentity } from '../lookup.js';
import { target } from '../../../audit/targets.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['identity'],
  properties: { identity: IDENTITY_PARAM },
} as const;
type Input = RequestOf<typeof requestSchema>;

/**
 * Deletes the identity: its externalId is free again at once (a later create gets a new id) and
 * keys linked to it behave as if they had none. Like Unkey, the success body has no `data`.
 */
export const identitiesDeleteIdentity = defineRoute<Input, undefined>({
  name: 'identities.deleteIdentity',
  audited: true,
  // As in Unkey, the success body is `{meta}` alone: no `data` at all.
  responseSchema: null,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['identity.*.delete_identity']);
    const identity = await findIdentity(services, principal.workspaceId, input.identity);
    // False when a concurrent delete won: that caller got the 200, this one the 404.
    const event = ctx.audit({ targets: [target('identity', identity.id, identity.externalId)], summary: `deleted identity '${identity.externalId}'` });
    if (!(await services.storage.identities.delete(identity.id, event))) {
      throw new ApiError('err:unkey:data:identity_not_found', 'This identity does not exist.');
    }
    return undefined;
  },
});
