/**
 * The answer of keys.verifyKey for a key that was found: its description (the same for every
 * verification of the key until it changes, so serialized once, with its hot entry) and the
 * fields of this one verification (outcome, limits, credits), written around it.
 */
import { describeIdentity, shownList, shownObject, shownText } from './describe.js';
import type { IdentityRecord, KeyRecord } from '../storage/records.js';
import { integerText } from '../util/integer-text.js';
import { JSON_TEXT, type HasJsonText } from '../util/json-text.js';
import type { VerifyCode, VerifyRatelimit, VerifyResult } from './verify.js';
import type { AppliedLimit } from './limits.js';
import type { LimitCheckResult } from '../ratelimit/types.js';

export type KeyDescription = Omit<VerifyResult, 'valid' | 'code' | 'ratelimits' | 'credits'>;

/** The data block of a found key, without outcome fields; empty values by describe.ts's rule. */
export function describeKey(key: KeyRecord, permissions: readonly string[], identity: IdentityRecord | null): KeyDescription {
  const result: KeyDescription = { keyId: key.id };
  if (shownText(key.name)) result.name = key.name;
  if (shownObject(key.meta)) result.meta = key.meta;
  if (key.expires !== undefined) result.expires = key.expires;
  result.enabled = key.enabled;
  if (shownList(permissions)) result.permissions = [...permissions];
  if (shownList(key.roles)) result.roles = [...key.roles];
  // Identity limits a key-level limit of the same name shadows are not the identity's to show.
  if (identity) result.identity = describeIdentity(identity, identity.ratelimits.filter((c) => !key.ratelimits.some((r) => r.name === c.name)));
  return result;
}

/** A description's members as JSON text, without the braces (never empty: keyId is always there). */
export const describedJson = (description: KeyDescription): string => JSON.stringify(description).slice(1, -1);

/** Per applied limit: its answer object up to `duration` (the same every time), and its last reset as text. */
interface LimitText {
  readonly start: string;
  resetAtMs: number;
  resetText: string;
}

const limitTexts = new WeakMap<AppliedLimit, LimitText>();

function limitJson(a: AppliedLimit, r: LimitCheckResult): string {
  let text = limitTexts.get(a);
  if (text === undefined) {
    text = { start: `{"id":${JSON.stringify(a.id)},"name":${JSON.stringify(a.name)},"limit":${a.check.limit},"duration":${a.check.durationMs},"reset":`, resetAtMs: -1, resetText: '' };
    limitTexts.set(a, text);
  }
  // The reset moves once a window: its text is made once a window.
  if (text.resetAtMs !== r.resetAtMs) {
    text.resetAtMs = r.resetAtMs;
    text.resetText = integerText(r.resetAtMs);
  }
  return `${text.start}${text.resetText},"remaining":${integerText(r.remaining)},"exceeded":${r.passed ? 'false' : 'true'},"autoApply":${a.autoApply ? 'true' : 'false'}}`;
}

export class KeyVerdict implements VerifyResult, HasJsonText {
  valid = false;
  code: VerifyCode = 'VALID';
  credits?: number;
  private limits?: { readonly applied: readonly AppliedLimit[]; readonly results: readonly LimitCheckResult[] };

  constructor(private readonly description: KeyDescription, private readonly descriptionJson: string) {}

  /** The limits this verification checked, with their results (in the order applied). */
  setLimits(applied: readonly AppliedLimit[], results: readonly LimitCheckResult[]): void {
    this.limits = { applied, results };
  }

  get ratelimits(): VerifyRatelimit[] | undefined {
    const limits = this.limits;
    if (limits === undefined) return undefined;
    return limits.applied.map((a, i) => {
      const r = limits.results[i]!;
      return { id: a.id, name: a.name, limit: a.check.limit, duration: a.check.durationMs, reset: r.resetAtMs,
        remaining: r.remaining, exceeded: !r.passed, autoApply: a.autoApply };
    });
  }

  [JSON_TEXT](): string {
    let text = `{"valid":${this.valid},"code":"${this.code}",${this.descriptionJson}`;
    const limits = this.limits;
    if (limits !== undefined) {
      text += ',"ratelimits":[';
      for (let i = 0; i < limits.applied.length; i++) text += (i === 0 ? '' : ',') + limitJson(limits.applied[i]!, limits.results[i]!);
      text += ']';
    }
    if (this.credits !== undefined) text += `,"credits":${this.credits}`;
    return `${text}}`;
  }

  toJSON(): VerifyResult {
    const ratelimits = this.ratelimits;
    return {
      valid: this.valid, code: this.code, ...this.description,
      ...(ratelimits !== undefined ? { ratelimits } : {}),
      ...(this.credits !== undefined ? { credits: this.credits } : {}),
    };
  }
}
