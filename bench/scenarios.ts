/**
 * The scenarios: what one request of each is, and the answer that proves it did what it claims
 * (checked on a sample before the load starts, since verifyKey answers 200 to every outcome).
 */
import { randomKeys, type Seeded } from './lib/api.js';

export type ScenarioId = 'verifyKeyOne' | 'verifyKey' | 'verifyKeyLimits' | 'verifyKeyUnknown' | 'ratelimitLimit' | 'createKey';

export interface Scenario {
  readonly id: ScenarioId;
  readonly procedure: string;
  readonly what: string;
  /** Request bodies, sent in turn. */
  bodies(seeded: Seeded): string[];
  /** True when a sample answer's data is the expected outcome. */
  expect(data: Record<string, unknown>): boolean;
  /** Also measured at a fixed rate (half its own max), against the baseline at the same rate. */
  readonly latency?: true;
}

const verify = (keys: readonly string[]): string[] => keys.map((key) => JSON.stringify({ key }));

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'verifyKeyOne', procedure: 'keys.verifyKey', what: 'one existing key, again and again', latency: true,
    bodies: (s) => verify(s.plainKeys.slice(0, 1)), expect: (d) => d.code === 'VALID',
  },
  {
    id: 'verifyKey', procedure: 'keys.verifyKey', what: 'existing keys, no limits, no identity', latency: true,
    bodies: (s) => verify(s.plainKeys), expect: (d) => d.code === 'VALID',
  },
  {
    id: 'verifyKeyLimits', procedure: 'keys.verifyKey', what: 'existing keys of identities with two auto-applied limits', latency: true,
    bodies: (s) => verify(s.limitedKeys), expect: (d) => d.code === 'VALID' && Array.isArray(d.ratelimits) && d.ratelimits.length === 2,
  },
  {
    id: 'verifyKeyUnknown', procedure: 'keys.verifyKey', what: 'random keys that do not exist (negative cache)',
    bodies: (s) => verify(randomKeys(s.plainKeys.length, 'bu')), expect: (d) => d.code === 'NOT_FOUND',
  },
  {
    id: 'ratelimitLimit', procedure: 'ratelimit.limit', what: 'one namespace, as many identifiers as keys',
    bodies: (s) => s.plainKeys.map((_, i) => JSON.stringify({ namespace: 'bench', identifier: `user_${i}`, limit: 1_000_000_000_000, duration: 60_000 })),
    expect: (d) => d.success === true,
  },
  {
    id: 'createKey', procedure: 'keys.createKey', what: 'a new key per request',
    bodies: (s) => [JSON.stringify({ apiId: s.apiId, prefix: 'bn' })], expect: (d) => typeof d.key === 'string',
  },
];

/** The scenarios the reference (bench/minimal-verify-server.ts) is measured in too, on embedded's keys. */
export const REFERENCE_SCENARIOS: readonly ScenarioId[] = ['verifyKeyOne', 'verifyKey'];
