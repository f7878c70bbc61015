/**
 * Three keygate replicas on one Redis Cluster agree exactly on identity limits (issue acceptance):
 * 500 concurrent verifications of five keys of one identity, spread over the replicas, admit
 * exactly the limit; over several windows, two limits of different cost are never exceeded.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ok, startReplicas, type Replicas } from '../support/replicas.js';
import { waitForWindowRoom } from '../support/time.js';

describe('distributed: limit accuracy across replicas', () => {
  let r: Replicas;
  beforeAll(async () => { r = await startReplicas(3); }, 60_000);
  afterAll(async () => { await r?.stop(); });

  async function identityWithKeys(externalId: string, ratelimits: unknown[], keyCount: number): Promise<string[]> {
    const { apiId } = await ok(r.call(0, 'apis.createApi', { name: externalId }));
    await ok(r.call(1, 'identities.createIdentity', { externalId, ratelimits }));
    const keys: string[] = [];
    for (let i = 0; i < keyCount; i++) keys.push((await ok(r.call(i, 'keys.createKey', { apiId, externalId }))).key);
    return keys;
  }

  test('limit 50 per 60 s, five keys, 500 concurrent verifications over three replicas: exactly 50 VALID', async () => {
    const keys = await identityWithKeys('acc_user', [{ name: 'requests', limit: 50, duration: 60_000, autoApply: true }], 5);
    await waitForWindowRoom(60_000, 20_000);
    const answers = await Promise.all(Array.from({ length: 500 }, (_, i) => r.call(i % 3, 'keys.verifyKey', { key: keys[i % 5] })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const codes = answers.map((a) => a.body.data.code as string);
    expect(codes.filter((c) => c === 'VALID')).toHaveLength(50);
    expect(codes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(450);
  }, 60_000);

  test('two limits (cost 1 and 3) over several windows: admitted cost never exceeds either limit', async () => {
    const DURATION = 2_000;
    const keys = await identityWithKeys('acc_multi', [
      { name: 'small', limit: 40, duration: DURATION, autoApply: false },
      { name: 'big', limit: 90, duration: DURATION, autoApply: false },
    ], 5);
    const admittedByWindow = new Map<number, number>();
    // Start just after a window edge, so the first burst falls inside one window.
    await new Promise((resolve) => setTimeout(resolve, DURATION - (Date.now() % DURATION) + 20));
    const stopAt = Date.now() + 3 * DURATION + 500;
    let sent = 0;
    while (Date.now() < stopAt) {
      const burst = await Promise.all(Array.from({ length: 60 }, (_, i) => r.call(sent + i, 'keys.verifyKey', {
        key: keys[(sent + i) % 5], ratelimits: [{ name: 'small', cost: 1 }, { name: 'big', cost: 3 }],
      })));
      sent += burst.length;
      for (const a of burst) {
        expect(a.status).toBe(200);
        if (a.body.data.code !== 'VALID') continue;
        const reset = a.body.data.ratelimits.find((l: any) => l.name === 'small').reset as number;
        admittedByWindow.set(reset, (admittedByWindow.get(reset) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(admittedByWindow.size).toBeGreaterThanOrEqual(3);
    for (const [, admitted] of admittedByWindow) {
      expect(admitted * 1).toBeLessThanOrEqual(40);
      expect(admitted * 3).toBeLessThanOrEqual(90);
    }
    // Traffic far above the limits: the first window is filled to the binding limit, not below it.
    const first = Math.min(...admittedByWindow.keys());
    expect(admittedByWindow.get(first)).toBe(30);
  }, 60_000);
});
