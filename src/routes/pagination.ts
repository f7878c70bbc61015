/**
 * Unkey's cursor pagination: ids ascending, the cursor is inclusive and is the first id of the
 * next page. Stores are asked for `limit + 1` records; the extra one becomes the cursor.
 */
import type { Page } from '../shapes/page.js';

/** Request fields of every list procedure (Unkey: 1..100, default 100; cursors bounded by keygate). */
export const LIST_LIMIT = { type: 'integer', minimum: 1, maximum: 100, default: 100 } as const;
export const LIST_CURSOR = { type: 'string', maxLength: 1024 } as const;

export function toPage<T extends { id: string }, R>(records: readonly T[], limit: number, map: (record: T) => R): Page<R> {
  const hasMore = records.length > limit;
  const shown = hasMore ? records.slice(0, limit) : records;
  return {
    data: shown.map(map),
    pagination: hasMore ? { cursor: records[limit]!.id, hasMore } : { hasMore },
  };
}
