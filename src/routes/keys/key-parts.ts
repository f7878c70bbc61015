/**
 * What createKey, migrateKeys and updateKey build alike: the identity a key is linked to by
 * externalId (created when missing, as Unkey does), and a new key record without empty meta (the
 * rule for empty values of keys/describe.ts).
 */
import type { Services } from '../../wiring/services.js';
import type { IdentityRecord, KeyRecord } from '../../storage/records.js';
import { shownObject } from '../../keys/describe.js';
import { newId } from '../../util/ids.js';
import { toRatelimitConfigs } from '../ratelimits.js';
import type { RatelimitRequest } from '../schemas.js';

/** The live identity with this externalId, created (no meta, no limits) when there is none. */
export function identityFor(services: Services, workspaceId: string, externalId: string, nowMs: number): Promise<IdentityRecord> {
  return services.storage.identities.getOrCreate(workspaceId, externalId, () => ({
    id: newId('id'), workspaceId, externalId, ratelimits: [], createdAt: nowMs,
  }));
}

export interface NewKeyParts {
  readonly workspaceId: string;
  readonly api: { readonly id: string; readonly keyspaceId: string };
  readonly hash: string;
  readonly start: string;
  readonly name?: string;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly identity: IdentityRecord | null;
  readonly expires?: number;
  readonly enabled: boolean;
  readonly hasCredits: boolean;
  readonly ratelimits?: readonly RatelimitRequest[];
  readonly permissions: readonly string[];
  readonly roles: readonly string[];
  readonly createdAt: number;
}

export function newKeyRecord(p: NewKeyParts): KeyRecord {
  return {
    id: newId('key'),
    workspaceId: p.workspaceId,
    apiId: p.api.id,
    keyspaceId: p.api.keyspaceId,
    hash: p.hash,
    start: p.start,
    ...(p.name !== undefined ? { name: p.name } : {}),
    ...(shownObject(p.meta) ? { meta: p.meta } : {}),
    ...(p.identity ? { identityId: p.identity.id } : {}),
    ...(p.expires !== undefined ? { expires: p.expires } : {}),
    enabled: p.enabled,
    hasCredits: p.hasCredits,
    ratelimits: toRatelimitConfigs(p.ratelimits),
    permissions: p.permissions,
    roles: p.roles,
    createdAt: p.createdAt,
  };
}
