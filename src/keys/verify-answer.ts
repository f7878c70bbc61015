/**
 * The answer of keys.verifyKey for a key that was found: its description (the same for every
 * verification of the key until it changes, so encoded once, with its hot entry) and the fields
 * of this one verification (outcome, limits, credits), written around it as bytes.
 */
import { describeIdentity, shownList, shownObject, shownText } from './describe.js';
import type { IdentityRecord, KeyRecord } from '../storage/records.js';
import { JSON_BYTES, utf8, type ByteWriter, type HasJsonBytes } from '../util/json-bytes.js';
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

const VALID_FALSE = utf8('{"valid":false,"code":"');
const CODE_END = utf8('",');
const REMAINING = utf8(',"remaining":');
/** A limit's last two members by (exceeded, autoApply), and its closing brace. */
const LIMIT_ENDS = [
  utf8(',"exceeded":false,"autoApply":false}'), utf8(',"exceeded":false,"autoApply":true}'),
  utf8(',"exceeded":true,"autoApply":false}'), utf8(',"exceeded":true,"autoApply":true}'),
];
const NO_LIMITS = utf8(',"ratelimits":[]');
const CREDITS = utf8(',"credits":');
const CLOSE_ARRAY = 93;
const CLOSE_OBJECT = 125;

/** Limit `i`'s answer object up to its `reset` (which changes), after `,"ratelimits":[` or a comma. */
const limitStart = (a: AppliedLimit, i: number): string =>
  `${i === 0 ? ',"ratelimits":[' : ','}{"id":${JSON.stringify(a.id)},"name":${JSON.stringify(a.name)},"limit":${JSON.stringify(a.check.limit)},"duration":${JSON.stringify(a.check.durationMs)},"reset":`;

const VALID_HEAD = '{"valid":true,"code":"VALID",';

/**
 * The bytes of a hot key's answers that do not change between its verifications, encoded once:
 * an answer copies a few long runs instead of building many short ones.
 */
export interface AnswerParts {
  /** A VALID answer up to the end of the key's description. */
  readonly valid: Uint8Array;
  /** Each auto limit's start (limitStart). */
  readonly autoLimits: readonly Uint8Array[];
}

/**
 * One buffer of its own per hot entry, its parts views of it. Not Buffer.from per part: those are
 * views of Node's shared 8 KB pool chunks, and a view keeps its whole chunk alive, so a hot set
 * whose entries come and go (many keys) would hold many times its answers' bytes.
 */
export function answerParts(description: KeyDescription, autoLimits: readonly AppliedLimit[]): AnswerParts {
  const texts = [`${VALID_HEAD}${JSON.stringify(description).slice(1, -1)}`, ...autoLimits.map((a, i) => limitStart(a, i))];
  let size = 0;
  for (const text of texts) size += Buffer.byteLength(text);
  const block = Buffer.allocUnsafeSlow(size);
  let at = 0;
  const views = texts.map((text) => {
    const written = block.write(text, at);
    const view = block.subarray(at, at + written);
    at += written;
    return view;
  });
  return { valid: views[0]!, autoLimits: views.slice(1) };
}

interface CheckedLimits {
  readonly applied: readonly AppliedLimit[];
  readonly results: readonly LimitCheckResult[];
  /** True when `applied` are the hot key's auto limits, whose starts are in its AnswerParts. */
  readonly auto: boolean;
}

export class KeyVerdict implements VerifyResult, HasJsonBytes {
  valid = false;
  code: VerifyCode = 'VALID';
  credits?: number;
  private limits?: CheckedLimits;

  constructor(private readonly description: KeyDescription, private readonly parts: AnswerParts) {}

  /** The limits this verification checked, with their results (in the order applied); `auto`: see CheckedLimits. */
  setLimits(applied: readonly AppliedLimit[], results: readonly LimitCheckResult[], auto: boolean): void {
    this.limits = { applied, results, auto };
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

  [JSON_BYTES](out: ByteWriter): void {
    const { limits, parts } = this;
    if (this.valid) {
      out.bytes(parts.valid);
    } else {
      out.bytes(VALID_FALSE);
      out.ascii(this.code);
      out.bytes(CODE_END);
      out.bytesFrom(parts.valid, VALID_HEAD.length);
    }
    if (limits !== undefined && limits.applied.length === 0) out.bytes(NO_LIMITS);
    else if (limits !== undefined) {
      for (let i = 0; i < limits.applied.length; i++) {
        if (limits.auto) out.bytes(parts.autoLimits[i]!);
        else out.text(limitStart(limits.applied[i]!, i));
        this.writeLimit(out, limits, i);
      }
      out.byte(CLOSE_ARRAY);
    }
    if (this.credits !== undefined) {
      out.bytes(CREDITS);
      out.number(this.credits);
    }
    out.byte(CLOSE_OBJECT);
  }

  /** The changing members of limit `i`, after its start. */
  private writeLimit(out: ByteWriter, limits: CheckedLimits, i: number): void {
    const r = limits.results[i]!;
    out.number(r.resetAtMs);
    out.bytes(REMAINING);
    out.number(r.remaining);
    out.bytes(LIMIT_ENDS[(r.passed ? 0 : 2) + (limits.applied[i]!.autoApply ? 1 : 0)]!);
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
