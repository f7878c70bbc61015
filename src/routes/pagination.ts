/**
 * Unkey's cursor pagination: ids ascending, the cursor is inclusive and is the first id of the
 * next page. Stores are asked for `limit + 1` records; the extra one becomes the cursor.
 */
export interface Page<T> {
  readonly data: T[];
  readonly pagination: { cursor?: string; hasMore: boolean };
}

export function toPage<T extends { id: string }, R>(records: readonly T[], limit: number, map: (record: T) => R): Page<R> {
  const hasMore = records.length > limit;
  const shown = hasMore ? records.slice(0, limit) : records;
  return {
    data: shown.map(map),
    pagination: hasMore ? { cursor: records[limit]!.id, hasMore } : { hasMore },
  };
}
