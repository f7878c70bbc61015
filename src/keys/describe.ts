/**
 * How keys and identities are described in answers (Unkey's KeyResponseData and Identity, and the
 * key fields of keys.verifyKey's answer in verify-answer.ts), all by the rule for empty values below.
 */
import type { IDENTITY, KEY_CREDITS, KEY_RESPONSE_DATA, RATELIMIT_RESPONSE } from '../shapes/responses.js';
import type { ShapeOf } from '../shapes/shape-of.js';
import type { CreditsRecord, IdentityRecord, KeyRecord, RatelimitConfig } from '../storage/records.js';

/**
 * The rule for empty values, for every description of a key or identity: an empty string, object
 * or list is left out, as if it were not set (Unkey's omission rule).
 */
export const shownText = (value: string | undefined): value is string => value !== undefined && value !== '';
export const shownObject = (value: Readonly<Record<string, unknown>> | undefined): value is Readonly<Record<string, unknown>> =>
  value !== undefined && Object.keys(value).length > 0;
export const shownList = (value: readonly unknown[]): boolean => value.length > 0;

/** RatelimitResponse: every field always present. */
export type RatelimitResponse = ShapeOf<typeof RATELIMIT_RESPONSE>;

export const ratelimitResponse = (r: RatelimitConfig): RatelimitResponse => ({ id: r.id, name: r.name, limit: r.limit, duration: r.duration, autoApply: r.autoApply });

export type IdentityResponse = ShapeOf<typeof IDENTITY>;

export const identityResponse = (identity: IdentityRecord): IdentityResponse => describeIdentity(identity, identity.ratelimits);

/** An identity with the limits to show (verifyKey leaves out those a key's own limits shadow). */
export function describeIdentity(identity: IdentityRecord, ratelimits: readonly RatelimitConfig[]): IdentityResponse {
  const out: IdentityResponse = { id: identity.id, externalId: identity.externalId };
  if (shownObject(identity.meta)) out.meta = identity.meta;
  if (shownList(ratelimits)) out.ratelimits = ratelimits.map(ratelimitResponse);
  return out;
}

export type CreditsResponse = ShapeOf<typeof KEY_CREDITS>;

export function creditsResponse(credits: CreditsRecord): CreditsResponse {
  const out: CreditsResponse = { remaining: credits.remaining };
  if (credits.refill) out.refill = { ...credits.refill };
  return out;
}

export type KeyResponse = ShapeOf<typeof KEY_RESPONSE_DATA>;

/**
 * KeyResponseData of getKey, whoami and listKeys. `identity` is null when the key has none (or it was deleted).
 * `rolePermissions`: slugs the key gets through its roles (storage.roles.slugsOfRoles), merged
 * into `permissions`, which then reports the effective set.
 */
export function keyResponse(key: KeyRecord, identity: IdentityRecord | null, credits: CreditsRecord | null, options: { sortPermissions?: boolean } = {}, rolePermissions: readonly string[] = []): KeyResponse {
  const out: KeyResponse = { keyId: key.id, start: key.start, enabled: key.enabled, createdAt: key.createdAt };
  if (shownText(key.name)) out.name = key.name;
  if (shownObject(key.meta)) out.meta = key.meta;
  if (key.updatedAt !== undefined) out.updatedAt = key.updatedAt;
  if (key.expires !== undefined) out.expires = key.expires;
  const permissions = [...new Set([...key.permissions, ...rolePermissions])];
  if (options.sortPermissions) permissions.sort();
  if (shownList(permissions)) out.permissions = permissions;
  if (shownList(key.roles)) out.roles = [...key.roles];
  if (credits) out.credits = creditsResponse(credits);
  if (identity) out.identity = identityResponse(identity);
  if (shownList(key.ratelimits)) out.ratelimits = key.ratelimits.map(ratelimitResponse);
  return out;
}
