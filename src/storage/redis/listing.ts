/**
 * Listings in id order: a sorted set of ids, all with score 0, read with ZRANGEBYLEX from the
 * cursor (inclusive), so the order is by bytes, as LMDB's key order. Entries are added before the
 * record is written and removed after it is deleted, so an entry may name a record that is
 * missing or no longer belongs; `keep` drops those, and applies filters (identity, search).
 *
 * Reads pages of ids until `limit` records are kept or the set ends: like LMDB's scan, a filter
 * that matches few records reads many (a search reads the workspace's set from the cursor on).
 */
import type { RedisClient } from '../../redis/client.js';

const PAGE_MIN = 16;
const PAGE_MAX = 500;

export async function listIds<T>(
  client: RedisClient,
  setKey: string,
  options: { readonly cursor?: string; readonly limit: number },
  read: (ids: readonly string[]) => Promise<(T | null)[]>,
  keep: (record: T) => boolean,
): Promise<T[]> {
  const out: T[] = [];
  if (options.limit <= 0) return out;
  const page = Math.min(Math.max(options.limit, PAGE_MIN), PAGE_MAX);
  let min = `[${options.cursor ?? ''}`;
  for (;;) {
    const ids = await client.zrangebylex(setKey, min, '+', 'LIMIT', 0, page);
    const records = await read(ids);
    for (const record of records) {
      if (record === null || !keep(record)) continue;
      out.push(record);
      if (out.length >= options.limit) return out;
    }
    if (ids.length < page) return out;
    min = `(${ids[ids.length - 1]!}`;
  }
}

/** Case-insensitive substring search over some fields, as LMDB's list does (trimmed needle). */
export function matches(search: string | undefined, fields: readonly (string | undefined)[]): boolean {
  const needle = search?.trim().toLowerCase();
  if (!needle) return true;
  return fields.some((f) => (f ?? '').toLowerCase().includes(needle));
}
