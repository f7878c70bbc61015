/**
 * The verification hot set: key hash → everything verifying that key reads (the key, its API, its
 * identity, its effective permissions, its auto-applied limits), built once from storage and then
 * answered from a Map. "No such key" is remembered too, so unknown keys cost one lookup as well.
 *
 * Entries are immutable and dropped, never patched, when the backend's change feed reports a change
 * to anything they were built from: writes of this process and of every other one (the CLI on the
 * same folder, other replicas). While the feed is not live nothing is remembered. Bounded: past
 * `maxEntries` the oldest entry goes (insertion order; a hit does not reorder, which would cost a
 * Map delete and insert per verification).
 */
import type { Change, ChangeFeed } from '../cache/change-feed.js';
import type { ApiRecord, IdentityRecord, KeyRecord, RatelimitConfig } from '../storage/records.js';
import type { Storage } from '../storage/types.js';
import { resolveLimits, type AppliedLimit } from './limits.js';
import { intern } from '../util/intern.js';
import type { LimitGroup } from '../ratelimit/types.js';
import type { DimsSlot } from '../storage/verification-columns.js';
import { answerParts, describeKey, type AnswerParts, type KeyDescription } from './verify-answer.js';

export interface HotKey {
  readonly key: KeyRecord;
  /** The key's workspace id, interned (util/intern.ts) like the principal's: compared by identity. */
  readonly workspaceId: string;
  /** Null when the API is gone: the key is then NOT_FOUND. */
  readonly api: ApiRecord | null;
  readonly identity: IdentityRecord | null;
  /** Direct permission slugs ∪ those of the key's roles. */
  readonly permissions: readonly string[];
  readonly permissionSet: ReadonlySet<string>;
  /** The limits a verification that names none applies (the auto-applied ones). */
  readonly autoLimits: readonly AppliedLimit[];
  /** Their checks as the one group the limiter takes (made once, not per verification). */
  readonly autoGroups: readonly LimitGroup[];
  /** Date.now() past which the entry is built again (Infinity without a time to live). */
  readonly expiresAtMs: number;
  /** The key's part of every verifyKey answer, and the unchanging bytes of its answers (verify-answer.ts). */
  readonly description: KeyDescription;
  readonly answer: AnswerParts;
  /** Per outcome, the analytics recorder's slot for this key's dimensions (storage/verification-columns.ts). */
  readonly recording: Partial<Record<string, DimsSlot>>;
}

/** Remembered "no key has this hash". */
export const MISSING = Symbol('missing key');
export type HotLookup = HotKey | typeof MISSING;

/** How a remembered "no such key" is held: with its expiry, like an entry. */
interface Missing { readonly missing: true; readonly expiresAtMs: number }

/**
 * Share of the time to live an entry may end early, at random: entries built together (every key
 * verified after a start) would otherwise all expire together and be rebuilt in one burst of
 * storage reads that stalls verification for seconds; spread out, each cycle spreads them more.
 */
const TTL_SPREAD = 0.25;

export interface HotSetOptions {
  readonly maxEntries: number;
  /**
   * Entries older than this are rebuilt (a safety net where changes travel over pub/sub); each
   * lives a random 75–100 % of it.
   */
  readonly ttlMs?: number;
  readonly now?: () => number;
}

/** An identity's auto-applied limits as its keys' hot entries use them, and the configs they came from. */
interface SharedLimits {
  readonly configs: readonly RatelimitConfig[];
  readonly autoLimits: readonly AppliedLimit[];
  readonly autoGroups: readonly LimitGroup[];
}

const sameConfigs = (a: readonly RatelimitConfig[], b: readonly RatelimitConfig[]): boolean =>
  a.length === b.length && a.every((x, i) => {
    const y = b[i]!;
    return x.id === y.id && x.name === y.name && x.limit === y.limit && x.duration === y.duration && x.autoApply === y.autoApply;
  });

export class VerificationHotSet {
  private readonly entries = new Map<string, HotKey | Missing>();
  /**
   * Per identity, the limits every key of it applies when the key has no limits of its own: one
   * set of check objects for all those keys instead of one per key, so the checks a verification
   * reads stay in the CPU's caches. Checked against the identity as read for each build (a
   * changed identity makes new ones), so nothing needs dropping on changes.
   */
  private readonly sharedLimits = new Map<string, SharedLimits>();
  /** identity id → hashes of remembered keys linked to it. */
  private readonly byIdentity = new Map<string, Set<string>>();
  /** Bumped by every change: a build that started before it must not be stored. */
  private generation = 0;
  private readonly now: () => number;
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(private readonly storage: Storage, private readonly feed: ChangeFeed, private readonly options: HotSetOptions) {
    this.now = options.now ?? Date.now;
    feed.listen((change) => this.changed(change));
  }

  /** The remembered entry for `hash`, or undefined when it must be loaded. */
  peek(hash: string): HotLookup | undefined {
    this.feed.catchUp();
    const entry = this.entries.get(hash);
    if (entry === undefined || !this.feed.live) return undefined;
    if (entry.expiresAtMs !== Infinity && this.now() >= entry.expiresAtMs) {
      this.forget(hash);
      return undefined;
    }
    this.hits++;
    return 'missing' in entry ? MISSING : entry;
  }

  /** Builds the entry from storage and remembers it unless something changed meanwhile. */
  async load(hash: string): Promise<HotLookup> {
    this.misses++;
    const generation = this.generation;
    const expiresAtMs = this.expiry();
    const key = await this.storage.keys.findByHash(hash);
    const entry = key ? await this.build(key, expiresAtMs) : MISSING;
    if (generation === this.generation && this.feed.live) this.remember(hash, entry, expiresAtMs);
    return entry;
  }

  /**
   * The entry for `key` as stored now, not remembered (keys read another way: migrations).
   * `expiresAtMs`: from before `key` was read, when the caller read it.
   */
  async build(key: KeyRecord, expiresAtMs = this.expiry()): Promise<HotKey> {
    const { storage } = this;
    const api = await storage.apis.get(key.apiId);
    const identity = key.identityId === undefined ? null : await storage.identities.get(key.identityId);
    const permissions = key.roles.length === 0 ? key.permissions
      : [...new Set([...key.permissions, ...await storage.roles.slugsOfRoles(key.workspaceId, key.roles)])];
    const description = describeKey(key, permissions, identity);
    const { autoLimits, autoGroups } = this.autoLimitsOf(key, identity);
    return Object.freeze({
      key, workspaceId: intern(key.workspaceId), api: api && api.deletedAt === undefined ? api : null, identity, description, answer: answerParts(description, autoLimits),
      permissions, permissionSet: new Set(permissions),
      autoLimits, autoGroups, expiresAtMs, recording: {},
    });
  }

  private autoLimitsOf(key: KeyRecord, identity: IdentityRecord | null): Omit<SharedLimits, 'configs'> {
    const made = (): Omit<SharedLimits, 'configs'> => {
      const autoLimits = resolveLimits(key, identity, undefined, true);
      return { autoLimits, autoGroups: [{ checks: autoLimits.map((a) => a.check), memo: {} }] };
    };
    // A key's own limits merge with its identity's: only identity limits alone are the same for every key.
    if (identity === null || key.ratelimits.length > 0) return made();
    const known = this.sharedLimits.get(identity.id);
    if (known !== undefined && sameConfigs(known.configs, identity.ratelimits)) return known;
    const shared = { configs: identity.ratelimits, ...made() };
    if (this.sharedLimits.size >= this.options.maxEntries) this.sharedLimits.clear();
    this.sharedLimits.set(identity.id, shared);
    return shared;
  }

  /** When an entry whose reads start now expires: counted from before the reads, so no read outlives the time to live. */
  private expiry(): number {
    const ttl = this.options.ttlMs;
    return ttl === undefined ? Infinity : this.now() + ttl * (1 - TTL_SPREAD * Math.random());
  }

  private remember(hash: string, entry: HotLookup, expiresAtMs: number): void {
    this.forget(hash);
    this.entries.set(hash, entry === MISSING ? { missing: true, expiresAtMs } : entry);
    const identityId = entry === MISSING ? undefined : entry.key.identityId;
    if (identityId !== undefined) {
      let hashes = this.byIdentity.get(identityId);
      if (!hashes) this.byIdentity.set(identityId, hashes = new Set());
      hashes.add(hash);
    }
    if (this.entries.size > this.options.maxEntries) {
      this.forget(this.entries.keys().next().value as string);
      this.evictions++;
    }
  }

  private forget(hash: string): void {
    const entry = this.entries.get(hash);
    if (entry === undefined) return;
    this.entries.delete(hash);
    const identityId = 'missing' in entry ? undefined : entry.key.identityId;
    if (identityId !== undefined) {
      const hashes = this.byIdentity.get(identityId);
      hashes?.delete(hash);
      if (hashes?.size === 0) this.byIdentity.delete(identityId);
    }
  }

  private changed(change: Change): void {
    this.generation++;
    switch (change.kind) {
      case 'key':
        if (change.hashes === undefined || change.hashes.length === 0) this.clear();
        else for (const hash of change.hashes) this.forget(hash);
        break;
      case 'identity':
        for (const hash of [...this.byIdentity.get(change.id) ?? []]) this.forget(hash);
        break;
      case 'api':
        this.forgetWhere((entry) => entry.key.apiId === change.id);
        break;
      case 'roles':
        this.forgetWhere((entry) => entry.key.roles.length > 0);
        break;
      case 'rootKeys':
        break;
      default:
        this.clear();
    }
  }

  private forgetWhere(test: (entry: HotKey) => boolean): void {
    for (const [hash, entry] of [...this.entries]) if (!('missing' in entry) && test(entry)) this.forget(hash);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.byIdentity.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
