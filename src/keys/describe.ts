/**
 * Response shapes shared by several procedures (Unkey's KeyResponseData and Identity), with
 * Unkey's omission rules: empty strings, empty objects and empty arrays are left out.
 */
import type { CreditsRecord, IdentityRecord, KeyRecord, RatelimitConfig } from '../storage/records.js';

/** RatelimitResponse: every field always present. */
export interface RatelimitResponse { id: string; name: string; limit: number; duration: number; autoApply: boolean }

export const ratelimitResponse = (r: RatelimitConfig): RatelimitResponse => ({ id: r.id, name: r.name, limit: r.limit, duration: r.duration, autoApply: r.autoApply });

export interface IdentityResponse {
  id: string;
  externalId: string;
  meta?: Readonly<Record<string, unknown>>;
  ratelimits?: RatelimitResponse[];
}

export function identityResponse(identity: IdentityRecord): IdentityResponse {
  const out: IdentityResponse = { id: identity.id, externalId: identity.externalId };
  if (identity.meta !== undefined && Object.keys(identity.meta).length > 0) out.meta = identity.meta;
  if (identity.ratelimits.length > 0) out.ratelimits = identity.ratelimits.map(ratelimitResponse);
  return out;
}

export interface CreditsResponse {
  remaining: number;
  refill?: { interval: 'daily' | 'monthly'; amount: number; refillDay?: number };
}

export function creditsResponse(credits: CreditsRecord): CreditsResponse {
  const out: CreditsResponse = { remaining: credits.remaining };
  if (credits.refill) out.refill = { ...credits.refill };
  return out;
}

export interface KeyResponse {
  keyId: string;
  start: string;
  enabled: boolean;
  name?: string;
  meta?: Readonly<Record<string, unknown>>;
  createdAt: number;
  updatedAt?: number;
  expires?: number;
  permissions?: string[];
  roles?: string[];
  credits?: CreditsResponse;
  identity?: IdentityResponse;
  ratelimits?: RatelimitResponse[];
}

/**
 * KeyResponseData of getKey, whoami and listKeys. `identity` is null when the key has none (or it was deleted).
 * `rolePermissions`: slugs the key gets through its roles (storage.roles.slugsOfRoles), merged
 * into `permissions`, which then reports the effective set.
 */
export function keyResponse(key: KeyRecord, identity: IdentityRecord | null, credits: CreditsRecord | null, options: { sortPermissions?: boolean } = {}, rolePermissions: readonly string[] = []): KeyResponse {
  const out: KeyResponse = { keyId: key.id, start: key.start, enabled: key.enabled, createdAt: key.createdAt };
  if (key.name !== undefined && key.name !== '') out.name = key.name;
  if (key.meta !== undefined && Object.keys(key.meta).length > 0) out.meta = key.meta;
  if (key.updatedAt !== undefined) out.updatedAt = key.updatedAt;
  if (key.expires !== undefined) out.expires = key.expires;
  const permissions = [...new Set([...key.permissions, ...rolePermissions])];
  if (options.sortPermissions) permissions.sort();
  if (permissions.length > 0) out.permissions = permissions;
  if (key.roles.length > 0) out.roles = [...key.roles];
  if (credits) out.credits = creditsResponse(credits);
  if (identity) out.identity = identityResponse(identity);
  if (key.ratelimits.length > 0) out.ratelimits = key.ratelimits.map(ratelimitResponse);
  return out;
}
