/**
 * The change log of the embedded backend: every write transaction that changes a record
 * verification reads (keys, APIs, identities, roles, permissions, root keys) appends what it
 * changed, under a sequence number kept in the same database. Every process writing the folder
 * (the server, the `keygate` CLI) appends through the stores, and LMDB serializes writers, so the
 * sequence has no gaps and no duplicates. A server's in-memory caches ask the feed to catch up
 * before every lookup; it reads the sequence (and the entries past the one it saw last):
 * - at once after a write of its own thread, until that write's entry is read back, so a request
 *   sent after a write was answered sees it;
 * - otherwise at most every OTHERS_WITHIN_MS, which is how a revocation made by the CLI reaches
 *   it. Reading on every lookup cost a read transaction (and lmdb's timer that ends it) in every
 *   event-loop turn. With a ChangeSignal (change-signal.ts; every writer announces there what it
 *   notes) that check is one read of a small file, and the log is read only when the file moved,
 *   or every FULL_READ_EVERY_MS in case a writer without the signal (an older keygate) wrote.
 * A write whose transaction aborts after noting its change leaves the feed reading on every
 * lookup until a later write of this thread commits that sequence number: slower, never stale.
 *
 * The log is trimmed to its last LOG_KEPT entries; a reader that fell further behind than that
 * (it cannot, while it serves) is told that everything changed.
 */
import type { Database } from 'lmdb';
import type { Change, ChangeFeed, ChangeListener } from '../../cache/change-feed.js';
import type { ChangeSignal } from './change-signal.js';

/** Key 0 holds the last sequence number; entries are at 1, 2, 3, … */
const SEQUENCE = 0;
const LOG_KEPT = 100_000;
/** Trimming runs when the sequence crosses a multiple of this. */
const TRIM_EVERY = 10_000;

/** Longest a change written by another process waits to be read by a server's feed. */
export const OTHERS_WITHIN_MS = 5;
/** Longest a change written without the signal (by an older keygate) waits to be read. */
export const FULL_READ_EVERY_MS = 1_000;

/** The feeds of this thread, per log: this thread's own writes tell them what to read back. */
const feedsOf = new WeakMap<Database, Set<LmdbChangeFeed>>();
/** Per log, the signal its writers announce changes in (registered where the folder is opened). */
const signalOf = new WeakMap<Database, ChangeSignal>();

export function useChangeSignal(changes: Database, signal: ChangeSignal): void {
  signalOf.set(changes, signal);
}

/** Compact entries: the log is written with every key change. */
type Entry = readonly [kind: Change['kind'], id?: string, ...hashes: string[]];

/** Inside a write transaction: appends `change` to the log. */
export function noteChange(changes: Database, change: Change): void {
  const sequence = ((changes.get(SEQUENCE) as number | undefined) ?? 0) + 1;
  changes.put(SEQUENCE, sequence);
  changes.put(sequence, encode(change));
  signalOf.get(changes)?.announce(sequence);
  const feeds = feedsOf.get(changes);
  if (feeds !== undefined) for (const feed of feeds) feed.wrote(sequence);
  if (sequence % TRIM_EVERY === 0 && sequence > LOG_KEPT) {
    for (const key of changes.getKeys({ start: 1, end: sequence - LOG_KEPT })) changes.remove(key);
  }
}

function encode(change: Change): Entry {
  switch (change.kind) {
    case 'key': return ['key', change.id ?? '', ...(change.hashes ?? [])];
    case 'api': case 'identity': return [change.kind, change.id];
    default: return [change.kind];
  }
}

function decode(entry: Entry): Change {
  const [kind, id, ...hashes] = entry;
  switch (kind) {
    case 'key': return { kind, ...(id ? { id } : {}), hashes };
    case 'api': case 'identity': return { kind, id: id! };
    default: return { kind };
  }
}

export class LmdbChangeFeed implements ChangeFeed {
  private readonly listeners: ChangeListener[] = [];
  private seen: number;
  /** The highest sequence a write of this thread noted: read until seen (it may not be committed yet). */
  private written = 0;
  /** Date.now() from which the log is read again for other processes' writes. */
  private nextReadAt = 0;
  /** Date.now() from which the log is read whatever the signal says. */
  private nextFullReadAt = 0;
  readonly live = true;

  constructor(private readonly changes: Database, private readonly signal?: ChangeSignal) {
    this.seen = this.sequence();
    let feeds = feedsOf.get(changes);
    if (feeds === undefined) feedsOf.set(changes, feeds = new Set());
    feeds.add(this);
  }

  private sequence(): number {
    return (this.changes.get(SEQUENCE) as number | undefined) ?? 0;
  }

  listen(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** Inside a write transaction of this thread: its entry is `sequence`. */
  wrote(sequence: number): void {
    if (sequence > this.written) this.written = sequence;
  }

  catchUp(): void {
    if (this.seen >= this.written) {
      // A clock stepped back (the wait would then look longer than OTHERS_WITHIN_MS) reads at once.
      const now = Date.now();
      if (now < this.nextReadAt && this.nextReadAt - now <= OTHERS_WITHIN_MS) return;
      this.nextReadAt = now + OTHERS_WITHIN_MS;
      if (this.signal !== undefined) {
        if (now < this.nextFullReadAt && this.nextFullReadAt - now <= FULL_READ_EVERY_MS) {
          // NaN (an unreadable signal) is not <= anything: the log is read.
          if (this.signal.announced() <= this.seen) return;
        } else {
          this.nextFullReadAt = now + FULL_READ_EVERY_MS;
        }
      }
    }
    const last = this.sequence();
    if (last === this.seen) return;
    let expected = this.seen + 1;
    for (const { key, value } of this.changes.getRange({ start: expected, end: last + 1 })) {
      if (key !== expected) break;
      this.emit(decode(value as Entry));
      expected++;
    }
    // Entries this reader never saw were trimmed: what it remembers may be stale.
    if (expected !== last + 1) this.emit({ kind: 'everything' });
    this.seen = last;
  }

  private emit(change: Change): void {
    for (const listener of this.listeners) listener(change);
  }
}
