/**
 * Verification records in Redis: one sorted set scored by record time (ms), trimmed to the
 * retained number by lua/verifications-append.lua in the same atomic step as the append. Each
 * member is a 16-hex-digit sequence number followed by the msgpack record, so records of one
 * millisecond keep their append order (members of equal score sort by bytes) and equal records
 * stay distinct. range is ZRANGEBYSCORE [fromMs, toMs): exact on record time (ms are integers,
 * exact as scores). A Stream would not do: its ids must grow, and batches arrive out of time order.
 *
 * The whole log is one key, so it lives on one cluster node (one slot); its size is bounded by
 * VERIFICATIONS_RETAINED. Records are positional tuples, as in LMDB (a third of the size).
 */
import type { RedisClient } from '../../redis/client.js';
import { decode, encode } from '../../redis/codec.js';
import type { VerificationRecord } from '../records.js';
import type { VerificationStore } from '../types.js';
import type { StorageKeys } from './keys.js';
import { scripts } from './scripts.js';

type Tuple = [number, string, string, string, string | null, string | null, string, readonly string[] | null, number];

/** Bytes of the sequence prefix of a member. */
const SEQUENCE_BYTES = 16;

const toTuple = (r: VerificationRecord): Tuple =>
  [r.time, r.requestId, r.apiId, r.keyId, r.identityId ?? null, r.externalId ?? null, r.outcome, r.tags ?? null, r.spentCredits];

function fromTuple([time, requestId, apiId, keyId, identityId, externalId, outcome, tags, spentCredits]: Tuple): VerificationRecord {
  return {
    time, requestId, apiId, keyId, outcome, spentCredits,
    ...(identityId !== null ? { identityId } : {}),
    ...(externalId !== null ? { externalId } : {}),
    ...(tags !== null ? { tags } : {}),
  };
}

export class RedisVerificationStore implements VerificationStore {
  constructor(private readonly client: RedisClient, private readonly k: StorageKeys, private readonly retained: number) {}

  async append(records: readonly VerificationRecord[]): Promise<void> {
    if (records.length === 0) return;
    const args: (string | Buffer | number)[] = [this.retained];
    for (const r of records) args.push(r.time, encode(toTuple(r)));
    await scripts.verificationsAppend.run(this.client, [this.k.verifications, this.k.verificationSequence], args);
  }

  async range({ fromMs, toMs, limit }: { fromMs?: number; toMs?: number; limit: number }): Promise<VerificationRecord[]> {
    if (limit <= 0) return [];
    const members = await this.client.zrangebyscoreBuffer(this.k.verifications,
      fromMs === undefined ? '-inf' : String(fromMs), toMs === undefined ? '+inf' : `(${toMs}`, 'LIMIT', 0, limit);
    return members.map((m) => fromTuple(decode<Tuple>(m.subarray(SEQUENCE_BYTES))!));
  }

  async count(): Promise<number> {
    return this.client.zcard(this.k.verifications);
  }
}
