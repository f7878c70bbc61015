/**
 * keys.migrateKeys: imports keys that another system created, by their hashes, under a migration
 * an operator made (`keygate migration create`). Every key is checked before anything is written
 * (a bad hash or a bad credits rule is a 400 for the whole request); a hash that is already taken
 * is reported in `failed` and the other keys are still imported. Missing roles, permissions and
 * identities are created, as Unkey does for migrations. A role or permission deleted while the
 * request runs is not kept by its keys, which are still imported (as if the delete came just after).
 */
import { requireAny, type Principal } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { importedHash, type ImportedHash } from '../../../keys/migration.js';
import { isSlowAlgorithm, SLOW_HASH_FORMAT } from '../../../keys/migration-slow.js';
import type { Services } from '../../../wiring/services.js';
import type { CreditsRecord, RoleRecord } from '../../../storage/records.js';
import { DuplicateError, type NewKey } from '../../../storage/types.js';
import { newId } from '../../../util/ids.js';
import { defineRoute } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { findLiveApi } from '../../apis/live-api.js';
import { resolveSlugs } from '../../permissions/shared.js';
import { creditsFromRequest } from '../createKey/credits.js';
import { identityFor, newKeyRecord } from '../key-parts.js';
import { migrateKeysSchema, type MigrateKeysInput } from './schema.js';
import { assertMetaSize } from '../../../validation/json-bounds.js';
import { responseSchema } from './response.js';
import { permissionTargets, roleTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

type Output = ShapeOf<typeof responseSchema>;

/** The role with this name, created (without permissions) when the workspace has none. */
async function roleNamed(services: Services, workspaceId: string, name: string): Promise<RoleRecord> {
  const { roles } = services.storage;
  const found = await roles.findByName(workspaceId, name);
  if (found) return found;
  const created: RoleRecord = { id: newId('role'), workspaceId, name, permissionIds: [], createdAt: services.now() };
  try {
    await roles.insert(created);
    return created;
  } catch (err) {
    // Created meanwhile by a concurrent request: use that one.
    if (!(err instanceof DuplicateError)) throw err;
    return (await roles.findByName(workspaceId, name))!;
  }
}

export const keysMigrateKeys = defineRoute<MigrateKeysInput, Output>({
  name: 'keys.migrateKeys',
  audited: true,
  responseSchema,
  requestSchema: migrateKeysSchema,
  checkInput: (input) => input.keys.forEach((k, i) => assertMetaSize(k.meta, `keys[${i}].meta`)),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    // Checked before any lookup (Unkey's order), so a 403 says nothing about what exists.
    requireAny(principal, ['api.*.create_key', `api.${input.apiId}.create_key`]);
    const api = await findLiveApi(services, principal, input.apiId);
    const migration = await services.storage.migrations.get(input.migrationId);
    if (!migration || migration.workspaceId !== principal.workspaceId) {
      throw new ApiError('err:unkey:data:migration_not_found', `Migration '${input.migrationId}' was not found.`);
    }
    const now = services.now();
    // Validate everything first: a refused request imports nothing.
    const prepared = input.keys.map((k, i) => {
      const hash = importedHash(migration, k.hash);
      if (hash === null) {
        const expected = isSlowAlgorithm(migration.algorithm) ? ` (expected ${SLOW_HASH_FORMAT[migration.algorithm]})` : '';
        throw new ApiError('err:unkey:application:invalid_input', `keys[${i}].hash is not a ${migration.algorithm} hash this migration can import${expected}.`);
      }
      return { input: k, hash, credits: creditsFromRequest(k.credits, now) };
    });

    const keys: NewKey[] = [];
    for (const { input: k, hash, credits } of prepared) {
      const key = await newKey(services, principal, api, input.migrationId, k, hash, credits, now);
      // One event per imported key, stored with it: each key of the batch commits on its own.
      keys.push({ ...key, event: ctx.audit({
        targets: [target('key', key.record.id, k.name), target('api', api.id), target('migration', input.migrationId), ...permissionTargets(key.attaching.permissions), ...roleTargets(key.attaching.roles)],
        summary: `imported key from migration '${input.migrationId}'`, changes: changesOf(k),
      }) });
    }
    // Inserted together: the store commits them in order, so a hash repeated inside the request
    // is imported once and reported as failed after that, like one already stored. 'omit': a key
    // is never refused for a role or permission deleted meanwhile, so every other outcome is a duplicate.
    const outcomes = await services.storage.keys.insertAttaching(keys, 'omit');
    const migrated: Output['migrated'] = [];
    const failed: string[] = [];
    outcomes.forEach((outcome, i) => {
      const given = prepared[i]!.input.hash;
      if (outcome.kind === 'inserted') migrated.push({ hash: given, keyId: keys[i]!.record.id });
      else failed.push(given);
    });
    return { migrated, failed };
  },
});

async function newKey(
  services: Services, principal: Principal, api: { id: string; keyspaceId: string }, migrationId: string,
  k: MigrateKeysInput['keys'][number], { hash, slowHash }: ImportedHash, credits: CreditsRecord | null, now: number,
): Promise<NewKey> {
  const { workspaceId } = principal;
  const roles: RoleRecord[] = [];
  for (const name of k.roles ?? []) {
    const stored = await roleNamed(services, workspaceId, name);
    if (!roles.some((r) => r.id === stored.id)) roles.push(stored);
  }
  const permissions = await resolveSlugs(services, principal, k.permissions ?? [], false);
  const identity = k.externalId === undefined ? null : await identityFor(services, workspaceId, k.externalId, now);
  const record = {
    ...newKeyRecord({
      workspaceId, api, hash,
      // Unknown until the key is first verified (its plaintext is never seen before).
      start: '',
      name: k.name, meta: k.meta, identity, expires: k.expires, enabled: k.enabled, hasCredits: credits !== null,
      ratelimits: k.ratelimits, permissions: permissions.map((p) => p.slug), roles: roles.map((r) => r.name), createdAt: now,
    }),
    pendingMigrationId: migrationId,
    ...(slowHash !== undefined ? { pendingMigrationHash: slowHash } : {}),
  };
  return { record, credits, attaching: { permissions, roles } };
}
