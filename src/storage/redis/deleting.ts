/**
 * The mark a permission or role delete puts on its record before it strips any key
 * (permissions.ts, roles.ts). A key change or a new key that attached the record meanwhile reads it
 * again after its write (attach.ts, insert-attaching.ts): a mark there means the delete may already
 * have passed that key, so the attach takes the record off again itself. Every other reader
 * ignores the mark: until its record is removed, a permission or role being deleted is still
 * there, as before, and a delete retried after a crash finds it and finishes.
 */
import type { RecordIo } from './record-io.js';

export type MaybeDeleting<T> = T & { readonly deleting?: true };

/** Marks the record at `recordKey` and resolves it; null when it is gone (a delete finished first). */
export async function markDeleting<T extends object>(io: RecordIo, recordKey: string): Promise<T | null> {
  return io.update<MaybeDeleting<T>, T | null>(recordKey, (current) => {
    if (!current) return { result: null };
    if (current.record.deleting) return { result: current.record };
    return { result: current.record, write: { ...current.record, deleting: true } };
  });
}

/** Whether a record read back is there and no delete has begun on it. */
export const isLive = (record: MaybeDeleting<object> | null): boolean => record !== null && record.deleting !== true;
