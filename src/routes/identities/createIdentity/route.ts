import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { shownObject } from '../../../keys/describe.js';
import { DuplicateError } from '../../../storage/types.js';
import { newId } from '../../../util/ids.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { toRatelimitConfigs } from '../../ratelimits.js';
import { EXTERNAL_ID, META, RATELIMIT_REQUEST } from '../../schemas.js';
import { assertMetaSize } from '../../../validation/json-bounds.js';
import { responseSchema } from './response.js';
import { target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

const requestSchema = {
  type: 'object',
  required: ['externalId'],
  properties: {
    externalId: EXTERNAL_ID,
    meta: META,
    ratelimits: { type: 'array', maxItems: 50, items: RATELIMIT_REQUEST },
  },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const identitiesCreateIdentity = defineRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'identities.createIdentity',
  audited: true,
  responseSchema,
  // Unkey tolerates unknown top-level properties on this one procedure.
  requestSchema,
  checkInput: (input) => assertMetaSize(input.meta, 'meta'),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['identity.*.create_identity']);
    const identityId = newId('id');
    try {
      await services.storage.identities.insert({
        id: identityId,
        workspaceId: principal.workspaceId,
        externalId: input.externalId,
        ...(shownObject(input.meta) ? { meta: input.meta } : {}),
        ratelimits: toRatelimitConfigs(input.ratelimits),
        createdAt: services.now(),
      }, ctx.audit({ targets: [target('identity', identityId, input.externalId)], summary: `created identity '${input.externalId}'`, changes: changesOf(input) }));
    } catch (err) {
      if (err instanceof DuplicateError) {
        throw new ApiError('err:unkey:data:identity_already_exists', `Identity with externalId '${input.externalId}' already exists in this workspace.`);
      }
      throw err;
    }
    return { identityId };
  },
});
