/**
 * Records in Redis: one hash per record, field `r` = the msgpack record (src/redis/codec.ts),
 * `v` = a version raised by every write. Changes are optimistic: read record and version, decide,
 * then write through record-cas.lua only if the version is unchanged, else read again and retry.
 * WATCH/MULTI is not used: WATCH belongs to a connection, and the storage shares one connection
 * (per node) among concurrent requests, so one request's EXEC would clear another's WATCH.
 */
import type { RedisClient } from '../../redis/client.js';
import { decode, encode } from '../../redis/codec.js';
import { scripts, sleep } from './scripts.js';
import type { AuditEvent } from '../../audit/event.js';
import type { RedisAuditLog } from './audit.js';
import { auditedScripts } from './audited-scripts.js';

export interface Stored<T> {
  readonly record: T;
  readonly version: number;
  /** The extra fields asked for, in order (a key's credits balance). */
  readonly extra: readonly (Buffer | null)[];
}

/** What `update` should do with the record it read; `result` is what update resolves. */
export interface Decision<T, R> {
  readonly result: R;
  /** A replacement record; absent = write nothing. */
  readonly write?: T;
  readonly remove?: boolean;
}

/** Conflicts tolerated before giving up; each costs two round trips and a short random pause. */
export const MAX_ATTEMPTS = 100;

export class RecordIo {
  /** `audit`: where events given to write, remove and update are stored (audit.ts). */
  constructor(private readonly client: RedisClient, readonly audit?: RedisAuditLog) {}

  async read<T>(key: string, extra: readonly string[] = []): Promise<Stored<T> | null> {
    const [r, v, ...rest] = await this.client.hmgetBuffer(key, 'r', 'v', ...extra);
    if (!r) return null;
    return { record: decode<T>(r)!, version: Number(v), extra: rest };
  }

  async get<T>(key: string): Promise<T | null> {
    return (await this.read<T>(key))?.record ?? null;
  }

  /** Records of several keys, read concurrently (they may sit on different cluster nodes). */
  async getMany<T>(keys: readonly string[]): Promise<(T | null)[]> {
    return Promise.all(keys.map((key) => this.get<T>(key)));
  }

  /**
   * Writes `record` if the stored version is `expected` (0: the record must not exist, '*': any).
   * `fields` are written along with it (a key's credits counter). False when the version differed.
   * `event` is stored in the same script call when the write happens.
   */
  async write(key: string, expected: number | '*', record: unknown, fields: readonly (string | number)[] = [], event?: AuditEvent): Promise<boolean> {
    return (await this.cas(key, [String(expected), encode(record), ...fields], event)) !== -1;
  }

  /** Deletes the whole hash if the stored version is `expected`. False when it differed. */
  async remove(key: string, expected: number, event?: AuditEvent): Promise<boolean> {
    return (await this.cas(key, [String(expected), ''], event)) !== -1;
  }

  private async cas(key: string, args: readonly (string | number | Buffer)[], event: AuditEvent | undefined): Promise<unknown> {
    if (event === undefined) return scripts.recordCas.run(this.client, [key], args);
    const prepared = await this.requireAudit().prepare(key, event);
    return auditedScripts.recordCas.run(this.client, [key, prepared.eventsKey], [...args, prepared.id, prepared.bytes]);
  }

  requireAudit(): RedisAuditLog {
    if (!this.audit) throw new Error('this record store keeps no audit log');
    return this.audit;
  }

  /**
   * Read, decide, compare-and-set, retried until no concurrent write intervened. `decide` may run
   * several times, so it must be free of side effects.
   */
  async update<T, R>(key: string, decide: (current: Stored<T> | null) => Decision<T, R>, event?: AuditEvent): Promise<R> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.read<T>(key);
      const decision = decide(current);
      if (decision.write === undefined && !decision.remove) return decision.result;
      const expected = current?.version ?? 0;
      const done = decision.remove ? await this.remove(key, expected, event) : await this.write(key, expected, decision.write, [], event);
      if (done) return decision.result;
      await backoff(attempt);
    }
    throw new Error(`too many concurrent writes to ${key}`);
  }
}

/** A short random pause after a lost compare-and-set, so a crowd of writers spreads out. */
export const backoff = (attempt: number): Promise<void> => sleep(Math.random() * Math.min(attempt + 1, 10));
