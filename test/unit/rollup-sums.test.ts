/**
 * Rollup increments summed from columns (src/storage/rollups.ts), as the analytics writer sums a
 * stream of batches: rows stay per (granularity, bucket, dimensions) whatever shortcut finds them.
 */
import { describe, expect, it } from 'vitest';
import type { VerificationRecord } from '../../src/storage/records.js';
import { RollupSums } from '../../src/storage/rollups.js';
import { ColumnsBuilder, type DimsSlot, type VerificationColumns } from '../../src/storage/verification-columns.js';

const MINUTE = Date.UTC(2026, 10, 2, 9, 30);
let n = 0;
const record = (time: number, keyId: string, outcome = 'VALID'): VerificationRecord =>
  ({ time, requestId: `req_${++n}`, apiId: 'api_1', keyId, outcome, spentCredits: 1, latency: 2 });

/** The rows as plain values, sorted, for comparing. */
const rows = (sums: RollupSums) => [...sums.values()]
  .map(({ granularity, time, dims, count, spentCredits, latencySum, latencyCount }) => ({ granularity, time, keyId: dims[1], outcome: dims[4], count, spentCredits, latencySum, latencyCount }))
  .sort((a, b) => a.granularity.localeCompare(b.granularity) || a.time - b.time || a.keyId.localeCompare(b.keyId) || a.outcome.localeCompare(b.outcome));

/** One batch from a builder that, like verifyKey, keeps a slot per key and outcome. */
function batch(builder: ColumnsBuilder, slots: Map<string, DimsSlot>, records: readonly VerificationRecord[]): VerificationColumns {
  for (const r of records) {
    const name = `${r.keyId}/${r.outcome}`;
    let slot = slots.get(name);
    if (slot === undefined) slots.set(name, slot = {});
    builder.add(r, slot);
  }
  return builder.take();
}

describe('rollup sums from columns', () => {
  it('batch after batch, a combination adds to its row of its minute; a new minute and a new RollupSums start new rows', () => {
    const builder = new ColumnsBuilder(100);
    const slots = new Map<string, DimsSlot>();
    const held = new RollupSums();
    held.addColumns(batch(builder, slots, [record(MINUTE + 1, 'key_a'), record(MINUTE + 2, 'key_b'), record(MINUTE + 3, 'key_a')]), ['minute']);
    held.addColumns(batch(builder, slots, [record(MINUTE + 4, 'key_a'), record(MINUTE + 5, 'key_a', 'DISABLED')]), ['minute']);
    held.addColumns(batch(builder, slots, [record(MINUTE + 60_000, 'key_a'), record(MINUTE + 6, 'key_a')]), ['minute']);
    const sums = (count: number) => ({ count, spentCredits: count, latencySum: 2 * count, latencyCount: count });
    expect(rows(held)).toEqual([
      { granularity: 'minute', time: MINUTE, keyId: 'key_a', outcome: 'DISABLED', ...sums(1) },
      { granularity: 'minute', time: MINUTE, keyId: 'key_a', outcome: 'VALID', ...sums(4) },
      { granularity: 'minute', time: MINUTE, keyId: 'key_b', outcome: 'VALID', ...sums(1) },
      { granularity: 'minute', time: MINUTE + 60_000, keyId: 'key_a', outcome: 'VALID', ...sums(1) },
    ]);
    expect(held.size).toBe(4);

    // The recorder hands its rows over and holds the next ones in a new RollupSums: the rows
    // handed over must not change, and the new ones count from zero.
    const handedOver = rows(held);
    const next = new RollupSums();
    next.addColumns(batch(builder, slots, [record(MINUTE + 7, 'key_a'), record(MINUTE + 8, 'key_b')]), ['minute']);
    expect(rows(held)).toEqual(handedOver);
    expect(rows(next)).toEqual([
      { granularity: 'minute', time: MINUTE, keyId: 'key_a', outcome: 'VALID', ...sums(1) },
      { granularity: 'minute', time: MINUTE, keyId: 'key_b', outcome: 'VALID', ...sums(1) },
    ]);
  });

  it('every granularity asked for gets its row, batch after batch', () => {
    const builder = new ColumnsBuilder(100);
    const slots = new Map<string, DimsSlot>();
    const all = new RollupSums();
    for (let i = 0; i < 3; i++) all.addColumns(batch(builder, slots, [record(MINUTE + i * 60_000, 'key_a')]), ['minute', 'hour', 'day', 'month']);
    const counts = rows(all).map((r) => `${r.granularity} ${r.time - MINUTE} ${r.count}`);
    expect(counts).toEqual([
      `day ${Date.UTC(2026, 10, 2) - MINUTE} 3`, `hour ${Date.UTC(2026, 10, 2, 9) - MINUTE} 3`,
      'minute 0 1', 'minute 60000 1', 'minute 120000 1', `month ${Date.UTC(2026, 10, 1) - MINUTE} 3`,
    ]);
  });

  it("columns whose ids name other combinations (another thread's builder) still add to the combination their JSON names", () => {
    const builder = new ColumnsBuilder(100);
    const slots = new Map<string, DimsSlot>();
    const sums = new RollupSums();
    const first = batch(builder, slots, [record(MINUTE + 1, 'key_a'), record(MINUTE + 2, 'key_b')]);
    sums.addColumns(first, ['minute']);
    // Same ids, the combinations swapped: as if another builder had drawn the same numbers.
    const second = batch(builder, new Map(), [record(MINUTE + 3, 'key_b'), record(MINUTE + 4, 'key_b'), record(MINUTE + 5, 'key_a')]);
    sums.addColumns({ ...second, dimIds: first.dimIds! }, ['minute']);
    expect(rows(sums).map((r) => `${r.keyId} ${r.count}`)).toEqual(['key_a 2', 'key_b 3']);
  });
});
