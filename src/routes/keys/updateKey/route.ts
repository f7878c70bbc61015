import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { shownObject } from '../../../keys/describe.js';
import type { Services } from '../../../wiring/services.js';
import type { KeyRecord, RatelimitConfig, RoleRecord } from '../../../storage/records.js';
import { defineRoute } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { toRatelimitConfigs } from '../../ratelimits.js';
import type { RatelimitRequest } from '../../schemas.js';
import { resolveSlugs } from '../../permissions/shared.js';
import { findLiveKey } from '../live-key.js';
import { deletedMeanwhile } from '../rbac.js';
import { nextCredits } from './credits.js';
import { identityFor } from '../key-parts.js';
import { updateKeySchema, type UpdateKeyInput } from './schema.js';
import { assertMetaSize } from '../../../validation/json-bounds.js';
import { EMPTY_DATA } from '../../../shapes/responses.js';
import { permissionTargets, roleTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Omitted keeps the field, null clears it, a value sets it. */
function apply<F extends 'name' | 'meta' | 'expires'>(record: Mutable<KeyRecord>, field: F, requested: KeyRecord[F] | null | undefined): void {
  if (requested === undefined) return;
  if (requested === null) delete record[field];
  else record[field] = requested;
}

/** Full replacement; a limit whose name survives keeps its `rl_` id (Unkey's behaviour). */
function replaceRatelimits(current: readonly RatelimitConfig[], requested: readonly RatelimitRequest[]): RatelimitConfig[] {
  const idByName = new Map(current.map((r) => [r.name, r.id]));
  return toRatelimitConfigs(requested).map((r) => ({ ...r, id: idByName.get(r.name) ?? r.id }));
}

async function rolesNamed(services: Services, workspaceId: string, requested: readonly string[]): Promise<RoleRecord[]> {
  const roles: RoleRecord[] = [];
  for (const name of requested) {
    const role = await services.storage.roles.findByName(workspaceId, name);
    if (!role) throw new ApiError('err:unkey:data:role_not_found', `Role '${name}' was not found.`);
    if (!roles.some((r) => r.id === role.id)) roles.push(role);
  }
  return roles;
}

export const keysUpdateKey = defineRoute<UpdateKeyInput, ShapeOf<typeof EMPTY_DATA>>({
  name: 'keys.updateKey',
  audited: true,
  responseSchema: EMPTY_DATA,
  requestSchema: updateKeySchema,
  checkInput: (input) => assertMetaSize(input.meta, 'meta'),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    const { storage } = services;
    // Looked up first: the acceptable tuples name the key's API (Unkey's order: 404 before 403).
    const key = await findLiveKey(services, principal, input.keyId);
    requireAny(principal, ['api.*.update_key', `api.${key.apiId}.update_key`]);

    // Every rule is checked before anything is written, so a refused update changes nothing.
    const credits = input.credits === undefined ? undefined
      : nextCredits(input.credits, key.hasCredits ? await storage.keys.getCredits(key.id) : null);
    // Every role must exist (by name, case-insensitively); the key stores each role's own name.
    const roles = input.roles === undefined ? undefined : await rolesNamed(services, principal.workspaceId, input.roles);

    const now = services.now();
    const identityId = input.externalId === undefined || input.externalId === null ? input.externalId
      // Linking to an unknown externalId creates the identity, as createKey does.
      : (await identityFor(services, principal.workspaceId, input.externalId, now)).id;
    // Unknown slugs are created, without a create_permission check (Unkey's updateKey).
    const permissions = input.permissions === undefined ? undefined : await resolveSlugs(services, principal, input.permissions, false);

    // Only the fields the request names are changed, on the record as stored at the moment of the
    // write, so a concurrent change of other fields (keys.addRoles, say) is never lost. A role or
    // permission deleted since its lookup is not left on the key: the 404 of a missing one.
    // The event rides on the record change; a credits change after it is a follow-up (audit/event.ts).
    const event = ctx.audit({
      targets: [target('key', key.id, key.name), target('api', key.apiId), ...(identityId ? [target('identity', identityId, input.externalId ?? undefined)] : []),
        ...permissionTargets(permissions ?? []), ...roleTargets(roles ?? [])],
      summary: 'updated key', changes: changesOf(input, ['keyId']),
    });
    const outcome = await storage.keys.modifyAttaching(key.id, { permissions: permissions ?? [], roles: roles ?? [] }, (current) => {
      const next: Mutable<KeyRecord> = { ...current, updatedAt: now };
      apply(next, 'name', input.name);
      apply(next, 'meta', input.meta && !shownObject(input.meta) ? null : input.meta);
      apply(next, 'expires', input.expires);
      if (identityId === null) delete next.identityId;
      else if (identityId !== undefined) next.identityId = identityId;
      if (input.enabled !== undefined) next.enabled = input.enabled;
      if (input.ratelimits !== undefined) next.ratelimits = replaceRatelimits(current.ratelimits, input.ratelimits);
      if (roles !== undefined) next.roles = roles.map((r) => r.name);
      if (permissions !== undefined) next.permissions = permissions.map((p) => p.slug);
      return next;
    }, event);
    if (outcome.kind === 'deleted') throw deletedMeanwhile(outcome.deleted);
    if (credits === null) {
      await storage.keys.setCredits(key.id, null);
    } else if (credits !== undefined && input.credits) {
      // Only what the request changes is written, in one storage transaction: a verification that
      // spends credits meanwhile is never overwritten by a balance read earlier.
      await storage.keys.patchCredits(key.id, {
        ...(input.credits.remaining !== undefined ? { remaining: credits.remaining } : {}),
        ...(input.credits.refill !== undefined ? { refill: credits.refill ?? null } : {}),
      });
    }
    return {};
  },
});
