/**
 * One page of a listing that a scoped root key sees only part of: the store is read `limit + 1`
 * records at a time and records the key may not read are skipped, until `limit + 1` readable ones
 * are found (the extra one becomes the cursor, routes/pagination.ts) or the store ends.
 */
export async function readablePage<T extends { id: string }>(
  read: (options: { cursor?: string; limit: number }) => Promise<T[]>,
  readable: (record: T) => boolean,
  limit: number,
  cursor: string | undefined,
): Promise<T[]> {
  const out: T[] = [];
  let next = cursor;
  for (;;) {
    const batch = await read({ limit: limit + 1, ...(next ? { cursor: next } : {}) });
    const full = batch.length > limit;
    for (const record of full ? batch.slice(0, limit) : batch) {
      if (!readable(record)) continue;
      out.push(record);
      if (out.length > limit) return out;
    }
    if (!full) return out;
    // The cursor is inclusive: the next read starts at the one record not looked at yet.
    next = batch[limit]!.id;
  }
}
