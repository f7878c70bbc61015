import { requireAny } from '../../../auth/permissions.js';
import { generateKey } from '../../../keys/format.js';
import { notRecoverable } from '../../../keys/recoverable.js';
import type { CreditsRecord } from '../../../storage/records.js';
import { defineRoute } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { findLiveApi } from '../../apis/live-api.js';
import { resolveSlugs } from '../../permissions/shared.js';
import { createKeySchema, type CreateKeyInput } from './schema.js';
import { creditsFromRequest } from './credits.js';
import { identityFor, newKeyRecord } from '../key-parts.js';
import { deletedMeanwhile, existingRoles } from '../rbac.js';
import { assertMetaSize } from '../../../validation/json-bounds.js';
import { NEW_KEY } from '../../../shapes/responses.js';
import { permissionTargets, roleTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

/** Collisions of 16+ random bytes do not happen; the retry only guards the unique index. */
const MAX_ATTEMPTS = 3;

export const keysCreateKey = defineRoute<CreateKeyInput, ShapeOf<typeof NEW_KEY>>({
  name: 'keys.createKey',
  audited: true,
  responseSchema: NEW_KEY,
  requestSchema: createKeySchema,
  checkInput: (input) => assertMetaSize(input.meta, 'meta'),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    // Checked before the lookup, so a 403 says nothing about whether the API exists.
    requireAny(principal, ['api.*.create_key', `api.${input.apiId}.create_key`]);
    if (input.recoverable) requireAny(principal, ['api.*.encrypt_key', `api.${input.apiId}.encrypt_key`]);
    const { storage } = services;
    const api = await findLiveApi(services, principal, input.apiId);
    if (input.recoverable) throw notRecoverable();
    const now = services.now();
    const credits: CreditsRecord | null = creditsFromRequest(input.credits, now);
    // Every role must exist (by name, case-insensitively) before anything is written.
    const roles = await existingRoles(services, principal, input.roles ?? []);
    // Unknown permission slugs are created (name = slug) without a create_permission check.
    const permissions = await resolveSlugs(services, principal, input.permissions ?? [], false);
    const identity = input.externalId === undefined ? null : await identityFor(services, principal.workspaceId, input.externalId, now);
    for (let attempt = 1; ; attempt++) {
      const generated = generateKey(input.prefix, input.byteLength);
      const record = newKeyRecord({
        workspaceId: principal.workspaceId, api, hash: generated.hash, start: generated.start, name: input.name, meta: input.meta,
        identity, expires: input.expires, enabled: input.enabled, hasCredits: credits !== null, ratelimits: input.ratelimits,
        permissions: permissions.map((p) => p.slug), roles: roles.map((r) => r.name), createdAt: now,
      });
      // A role or permission deleted since its lookup: the 404 of a missing one, and no key is kept.
      const event = ctx.audit({
        targets: [target('key', record.id, input.name), target('api', api.id, api.name), ...(identity ? [target('identity', identity.id, identity.externalId)] : []),
          ...permissionTargets(permissions), ...roleTargets(roles)],
        summary: 'created key', changes: changesOf(input, ['apiId']),
      });
      const outcome = (await storage.keys.insertAttaching([{ record, credits, attaching: { permissions, roles }, event }], 'refuse'))[0]!;
      if (outcome.kind === 'inserted') return { keyId: record.id, key: generated.plaintext };
      if (outcome.kind === 'deleted') throw deletedMeanwhile(outcome.deleted);
      if (attempt >= MAX_ATTEMPTS) throw outcome.error;
    }
  },
});
