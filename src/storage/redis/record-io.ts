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
  constructor(private readonly client: RedisClient) {}

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
   */
  async write(key: string, expected: number | '*', record: unknown, fields: readonly (string | number)[] = []): Promise<boolean> {
    const version = await scripts.recordCas.run(this.client, [key], [String(expected), encode(record), ...fields]);
    return version !== -1;
  }

  /** Deletes the whole hash if the stored version is `expected`. False when it differed. */
  async remove(key: string, expected: number): Promise<boolean> {
    return (await scripts.recordCas.run(this.client, [key], [String(expected), ''])) !== -1;
  }

  /**
   * Read, decide, compare-and-set, retried until no concurrent write intervened. `decide` may run
   * several times, so it must be free of side effects.
   */
  async update<T, R>(key: string, decide: (current: Stored<T> | null) => Decision<T, R>): Promise<R> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.read<T>(key);
      const decision = decide(current);
      if (decision.write === undefined && !decision.remove) return decision.result;
      const expected = current?.version ?? 0;
      const done = decision.remove ? await this.remove(key, expected) : await this.write(key, expected, decision.write);
      if (done) return decision.result;
      await backoff(attempt);
    }
    throw new Error(`too many concurrent writes to ${key}`);
  }
}

/** A short random pause after a lost compare-and-set, so a crowd of writers spreads out. */
export const backoff = (attempt: number): Promise<void> => sleep(Math.random() * Math.min(attempt + 1, 10));
