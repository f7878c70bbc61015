import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { identityResponse, shownObject, type IdentityResponse } from '../../../keys/describe.js';
import type { IdentityRecord, RatelimitConfig } from '../../../storage/records.js';
import { newId } from '../../../util/ids.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { META, RATELIMIT_REQUEST, type RatelimitRequest } from '../../schemas.js';
import { IDENTITY_PARAM, findIdentity } from '../lookup.js';
import { assertMetaSize } from '../../../validation/json-bounds.js';
import { IDENTITY } from '../../../shapes/responses.js';
import { target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

/** The request's limits replace the identity's; a name kept keeps its id (its counters' owner). */
function replaceLimits(current: readonly RatelimitConfig[], requested: readonly RatelimitRequest[]): RatelimitConfig[] {
  const ids = new Map(current.map((r) => [r.name, r.id]));
  return requested.map((r) => ({ id: ids.get(r.name) ?? newId('rl'), name: r.name, limit: r.limit, duration: r.duration, autoApply: r.autoApply }));
}

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['identity'],
  properties: {
    identity: IDENTITY_PARAM,
    meta: META,
    ratelimits: { type: 'array', maxItems: 50, items: RATELIMIT_REQUEST },
  },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const identitiesUpdateIdentity = defineRoute<Input, IdentityResponse>({
  name: 'identities.updateIdentity',
  audited: true,
  // The identity after the update (its `meta` as the request sent it).
  responseSchema: IDENTITY,
  requestSchema,
  checkInput: (input) => assertMetaSize(input.meta, 'meta'),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['identity.*.update_identity']);
    const seen = new Set<string>();
    for (const { name } of input.ratelimits ?? []) {
      if (seen.has(name)) throw new ApiError('err:unkey:application:invalid_input', `Ratelimit with name '${name}' is already defined in the request`);
      seen.add(name);
    }
    const current = await findIdentity(services, principal.workspaceId, input.identity);
    const { meta: previousMeta, ...rest } = current;
    // meta replaces the whole object when sent (`{}` clears it); omitted keeps it.
    const meta = input.meta === undefined ? previousMeta : shownObject(input.meta) ? input.meta : undefined;
    const updated: IdentityRecord = {
      ...rest,
      ...(meta !== undefined ? { meta } : {}),
      ratelimits: input.ratelimits === undefined ? current.ratelimits : replaceLimits(current.ratelimits, input.ratelimits),
      updatedAt: services.now(),
    };
    await services.storage.identities.update(updated, ctx.audit({
      targets: [target('identity', current.id, current.externalId)], summary: `updated identity '${current.externalId}'`, changes: changesOf(input, ['identity']),
    }));
    // As in Unkey, the answer echoes the request's meta (none if it sent none), not the stored one.
    return identityResponse({ ...updated, meta: input.meta });
  },
});
