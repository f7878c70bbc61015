/**
 * The answer of keys.verifyKey for a key that was found: its description (the same for every
 * verification of the key until it changes, so serialized once, with its hot entry) and the
 * fields of this one verification (outcome, limits, credits), written around it.
 */
import { ratelimitResponse } from '../routes/ratelimits.js';
import type { IdentityRecord, KeyRecord } from '../storage/records.js';
import { JSON_TEXT, type HasJsonText } from '../util/json-text.js';
import type { VerifyCode, VerifyRatelimit, VerifyResult } from './verify.js';

export type KeyDescription = Omit<VerifyResult, 'valid' | 'code' | 'ratelimits' | 'credits'>;

/** The data block of a found key, without outcome fields. Empty values are omitted. */
export function describeKey(key: KeyRecord, permissions: readonly string[], identity: IdentityRecord | null): KeyDescription {
  const result: KeyDescription = { keyId: key.id };
  if (key.name !== undefined) result.name = key.name;
  if (key.meta !== undefined) result.meta = key.meta;
  if (key.expires !== undefined) result.expires = key.expires;
  result.enabled = key.enabled;
  if (permissions.length > 0) result.permissions = [...permissions];
  if (key.roles.length > 0) result.roles = [...key.roles];
  if (identity) {
    // Identity limits a key-level limit of the same name shadows are not the identity's to show.
    const own = identity.ratelimits
      .filter((c) => !key.ratelimits.some((r) => r.name === c.name)).map(ratelimitResponse);
    result.identity = { id: identity.id, externalId: identity.externalId };
    if (identity.meta !== undefined) result.identity.meta = identity.meta;
    if (own.length > 0) result.identity.ratelimits = own;
  }
  return result;
}

/** A description's members as JSON text, without the braces (never empty: keyId is always there). */
export const describedJson = (description: KeyDescription): string => JSON.stringify(description).slice(1, -1);

export class KeyVerdict implements VerifyResult, HasJsonText {
  valid = false;
  code: VerifyCode = 'VALID';
  ratelimits?: VerifyRatelimit[];
  credits?: number;

  constructor(private readonly description: KeyDescription, private readonly descriptionJson: string) {}

  [JSON_TEXT](): string {
    let text = `{"valid":${this.valid},"code":"${this.code}",${this.descriptionJson}`;
    if (this.ratelimits !== undefined) text += `,"ratelimits":${JSON.stringify(this.ratelimits)}`;
    if (this.credits !== undefined) text += `,"credits":${this.credits}`;
    return `${text}}`;
  }

  toJSON(): VerifyResult {
    return {
      valid: this.valid, code: this.code, ...this.description,
      ...(this.ratelimits !== undefined ? { ratelimits: this.ratelimits } : {}),
      ...(this.credits !== undefined ? { credits: this.credits } : {}),
    };
  }
}
