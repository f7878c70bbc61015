/**
 * The one msgpack codec for records kept in Redis. Plain maps and arrays only (no msgpackr
 * record extension), so Lua's cmsgpack can read what TypeScript writes and the other way round.
 * Values come back as Buffers (use the *Buffer commands of ioredis).
 */
import { Packr } from 'msgpackr';

const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true });

export const encode = (value: unknown): Buffer => packr.pack(value);

export function decode<T>(buffer: Buffer | null | undefined): T | null {
  return buffer === null || buffer === undefined ? null : (packr.unpack(buffer) as T);
}
