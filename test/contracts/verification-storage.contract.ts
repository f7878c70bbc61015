/**
 * Behavioural contract of VerificationStore (src/storage/types.ts). `open(retained)` gives a fresh
 * storage that keeps at most `retained` verification records.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { VerificationRecord } from '../../src/storage/records.js';
import type { Storage } from '../../src/storage/types.js';

let n = 0;
function record(time: number, overrides: Partial<VerificationRecord> = {}): VerificationRecord {
  return { time, requestId: `req_${++n}`, apiId: 'api_1', keyId: 'key_1', outcome: 'VALID', spentCredits: 0, ...overrides };
}

export function describeVerificationStorage(
  impl: string,
  open: (retained: number) => Promise<Storage> | Storage,
  close: (storage: Storage) => Promise<void> | void = (storage) => storage.close(),
): void {
  describe(`VerificationStore contract: ${impl}`, () => {
    let storage: Storage | undefined;
    afterEach(async () => {
      if (storage) await close(storage);
      storage = undefined;
    });

    it('records come back whole, in time order, within [fromMs, toMs), at most limit', async () => {
      storage = await open(1_000);
      const full = record(2_000, { identityId: 'id_1', externalId: 'acme', tags: ['path=/v1', 'region=eu'], spentCredits: 3, outcome: 'USAGE_EXCEEDED' });
      const bare = record(1_000);
      const sameMs = record(2_000, { keyId: 'key_2' });
      const late = record(5_000);
      await storage.verifications.append([full, late]);
      await storage.verifications.append([bare, sameMs]);
      expect(await storage.verifications.range({ limit: 10 })).toEqual([bare, full, sameMs, late]);
      expect(await storage.verifications.range({ fromMs: 2_000, toMs: 5_000, limit: 10 })).toEqual([full, sameMs]);
      expect(await storage.verifications.range({ fromMs: 1_500, limit: 1 })).toEqual([full]);
      expect(await storage.verifications.count()).toBe(4);
    });

    it('keeps at most the retained number: the oldest records go first', async () => {
      storage = await open(100);
      const records = Array.from({ length: 130 }, (_, i) => record(10_000 + i));
      await storage.verifications.append(records.slice(0, 70));
      await storage.verifications.append(records.slice(70));
      expect(await storage.verifications.count()).toBe(100);
      const kept = await storage.verifications.range({ limit: 1_000 });
      expect(kept).toEqual(records.slice(30));
    });

    it('an empty append changes nothing', async () => {
      storage = await open(100);
      await storage.verifications.append([]);
      expect(await storage.verifications.count()).toBe(0);
    });
  });
}
