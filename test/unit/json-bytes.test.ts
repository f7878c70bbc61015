/**
 * verifyKey's answer is written as bytes (src/util/json-bytes.ts, src/keys/verify-answer.ts): a
 * client must read exactly what JSON.stringify of the same answer would give, for every number,
 * text in any script, every outcome and limit shape, and answers larger than the shared buffer.
 */
import { describe, expect, it } from 'vitest';
import { ByteWriter } from '../../src/util/json-bytes.js';
import { answerParts, describeKey, KeyVerdict } from '../../src/keys/verify-answer.js';
import { dataReply, sendableBody } from '../../src/server/reply.js';
import type { AppliedLimit } from '../../src/keys/limits.js';
import type { IdentityRecord, KeyRecord } from '../../src/storage/records.js';

const text = (bytes: string | Uint8Array): string => (typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes));

describe('ByteWriter.written', () => {
  it('gives each answer its own bytes: two of the same length in turn, and one that outgrew the buffer, then a short one again', () => {
    const out = new ByteWriter();
    out.reset().ascii('{"a":1}');
    expect(text(out.written())).toBe('{"a":1}');
    out.reset().ascii('{"b":2}');
    expect(text(out.written())).toBe('{"b":2}');
    const long = `"${'x'.repeat(100_000)}"`;
    out.reset().ascii('{"c":');
    expect(text(out.written())).toBe('{"c":');
    out.ascii(long);
    expect(text(out.written())).toBe(`{"c":${long}`);
    out.reset().ascii('{"d":4}');
    expect(text(out.written())).toBe('{"d":4}');
    out.reset().ascii('{"c":');
    expect(text(out.written())).toBe('{"c":');
  });
});

describe('ByteWriter.number', () => {
  it('writes what JSON.stringify writes, around every power of ten, negative, fractional and past the safe range', () => {
    const values = [0, -0, 1, -1, 9, 10, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, -(2 ** 31), 99_999_999, 1e8, 1e8 + 1, 999_999_999, 1e9,
      1_764_000_000_000, 999_999_999_999, 1_000_000_000_007, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER + 1, 1e21, 0.5, 1e9 + 0.5, -3.25, 1e-7];
    for (let p = 1; p <= 1e15; p *= 10) values.push(p - 1, p, p + 1, p * 3 + 7, p * 9 + (p - 1));
    let seed = 7;
    for (let i = 0; i < 10_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      values.push(Math.floor((seed / 2 ** 31) * 2 ** (seed % 53)));
    }
    const out = new ByteWriter();
    for (const n of values) {
      out.reset().number(n);
      expect(text(out.written())).toBe(JSON.stringify(n));
    }
  });

  it('keeps earlier bytes when it grows past its buffer, and starts over on reset', () => {
    const out = new ByteWriter();
    const long = 'x'.repeat(100_000);
    out.ascii('ab');
    out.text(JSON.stringify(long));
    out.number(42);
    expect(text(out.written())).toBe(`ab${JSON.stringify(long)}42`);
    out.reset().ascii('c');
    expect(text(out.written())).toBe('c');
  });
});

const key = (over: Partial<KeyRecord> = {}): KeyRecord => ({
  id: 'key_AbC', workspaceId: 'ws_1', apiId: 'api_1', keyAuthId: 'ks_1', hash: 'h', start: 'kg_', name: 'naïve 鍵 🔑 "quoted" \\ \u0001',
  meta: { plan: 'pro', nested: { list: [1, 2.5, null, 'ü'] }, lone: '\ud800' }, enabled: true, permissions: [], roles: ['admin'],
  ratelimits: [], createdAt: 1, updatedAt: 1, hasCredits: false, ...over,
} as unknown as KeyRecord);

const identity = {
  id: 'id_1', workspaceId: 'ws_1', externalId: 'user-ü', meta: {}, createdAt: 1, updatedAt: 1,
  ratelimits: [{ id: 'rl_1', name: 'requests', limit: 1e12, duration: 60_000, autoApply: true }],
} as unknown as IdentityRecord;

const applied = (name: string, limit: number, autoApply: boolean): AppliedLimit => ({
  id: name === 'inline' ? '' : `rl_${name}`, name, autoApply,
  check: { counter: `vk:k:key_AbC:${name}`, owner: 'key_AbC', limit, durationMs: 1_000, cost: 1, memoryKey: name, memo: undefined },
}) as AppliedLimit;

describe("verifyKey's answer as bytes", () => {
  it('is the JSON of the same answer, whatever its outcome, limits, credits and text', () => {
    const cases: { key: KeyRecord; identity: IdentityRecord | null; permissions: string[] }[] = [
      { key: key(), identity, permissions: ['api.read', 'ключ'] },
      { key: key({ name: undefined, meta: undefined, roles: [], expires: 1_900_000_000_000 } as Partial<KeyRecord>), identity: null, permissions: [] },
    ];
    const auto = [applied('requests', 1e12, true), applied('burst', 5, true)];
    const named = [applied('requests', 1e12, true), applied('inline', 5, false)];
    const passed = [{ passed: true, remaining: 999_999_999_999, resetAtMs: 1_795_700_220_000 }, { passed: true, remaining: 0, resetAtMs: 1_795_700_193_000 }];
    const exceeded = [{ passed: true, remaining: 3, resetAtMs: 1_795_700_220_000 }, { passed: false, remaining: 0, resetAtMs: 1_795_700_193_000 }];
    for (const c of cases) {
      const description = describeKey(c.key, c.permissions, c.identity);
      for (const autoLimits of [auto, []]) {
        const parts = answerParts(description, autoLimits);
        const verdict = (code: 'VALID' | 'RATE_LIMITED' | 'USAGE_EXCEEDED' | 'DISABLED'): KeyVerdict => {
          const v = new KeyVerdict(description, parts);
          v.valid = code === 'VALID';
          v.code = code;
          return v;
        };
        const verdicts = [verdict('VALID'), verdict('VALID'), verdict('RATE_LIMITED'), verdict('RATE_LIMITED'), verdict('USAGE_EXCEEDED'), verdict('DISABLED')];
        if (autoLimits.length > 0) {
          verdicts[0]!.setLimits(autoLimits, passed as never, true);
          verdicts[2]!.setLimits(autoLimits, exceeded as never, true);
        }
        verdicts[1]!.setLimits(named, passed as never, false);
        verdicts[3]!.setLimits(named.slice(1), exceeded.slice(1) as never, false);
        verdicts[4]!.credits = 0;
        verdicts[4]!.setLimits([], [], autoLimits.length === 0);
        verdicts[5]!.credits = 12_345_678_901;
        for (const v of verdicts) {
          const body = sendableBody(dataReply('req_xyz', v).body);
          expect(typeof body).not.toBe('string');
          expect(text(body)).toBe(JSON.stringify({ meta: { requestId: 'req_xyz' }, data: v }));
        }
      }
    }
  });
});

describe("a hot key's answer parts", () => {
  it('hold their own bytes and no more: one buffer of exactly their size, not a view of a shared pool chunk the entry would keep alive', () => {
    const parts = answerParts(describeKey(key(), ['api.read', 'ключ'], identity), [applied('requests', 1e12, true), applied('burst', 5, true)]);
    const all = [parts.valid, ...parts.autoLimits];
    expect(new Set(all.map((p) => p.buffer)).size).toBe(1);
    expect(parts.valid.buffer.byteLength).toBe(all.reduce((n, p) => n + p.byteLength, 0));
  });
});
