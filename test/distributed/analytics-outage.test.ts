/**
 * Analytics across a Redis outage of seconds: verification records that could not be written
 * while Redis was away are kept and written once it is back (with the same call ids, so a write
 * that did land before the outage counts once), and the counts are exact.
 */
import { describe, expect, test } from 'vitest';
import { ok, useReplicaOnOwnRedis } from '../support/replicas.js';

describe('distributed: analytics survive a Redis outage', () => {
  const env = useReplicaOnOwnRedis();

  test('Redis stopped for 5 s under traffic and started again: every answered verification is counted once', async () => {
    const { redis, r } = env;
    const { apiId } = await ok(r.call(0, 'apis.createApi', { name: 'outage' }));
    const { key, keyId } = await ok(r.call(0, 'keys.createKey', { apiId }));
    let answered = 0;
    const verify = async (): Promise<void> => {
      const res = await r.call(0, 'keys.verifyKey', { key });
      if (res.status === 200) answered++;
    };
    // Traffic right up to the stop: the last records are still in the recorder's buffer then.
    for (let i = 0; i < 200; i++) await verify();
    await redis.halt(true);
    const downUntil = Date.now() + 5_000;
    while (Date.now() < downUntil) {
      await verify();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await redis.restart();
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await r.call(0, 'keys.verifyKey', { key });
      if (res.status === 200) {
        answered++;
        break;
      }
      if (Date.now() > deadline) throw new Error(`not recovered: ${res.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (let i = 0; i < 50; i++) await verify();

    // The query flushes this replica's recorder first, which tries the kept writes again.
    const count = async (): Promise<number> => {
      const data = await ok(r.call(0, 'analytics.getVerifications', { query: `SELECT count(*) AS n FROM key_verifications_v1 WHERE key_id = '${keyId}'` }));
      return (data as { n: number }[])[0]?.n ?? 0;
    };
    expect(answered).toBeGreaterThan(250);
    expect(await count()).toBe(answered);
    const metrics = await (await fetch(`${r.processes[0]!.url}/metrics`)).text();
    expect(metrics).toMatch(/keygate_verification_records_total\{result="failed"\} 0\b/);
  }, 60_000);
});
