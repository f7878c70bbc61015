/**
 * The circuit breaker cuts a master off only when it stopped answering, not when one command ran
 * late while its replies kept coming: here keygate's own event loop stalls past the command
 * timeout with replies waiting in the socket (as a long garbage collection would), and the next
 * commands go through. Its opening on a truly frozen master is test/distributed/circuit-breaker.test.ts.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CircuitOpenError } from '../../src/redis/circuit-breaker.js';
import { createRedis, waitUntilReady, type RedisClient } from '../../src/redis/client.js';

const COMMAND_TIMEOUT_MS = 50;

function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* busy: no timer or socket callback runs */ }
}

describe('circuit breaker: a stalled client is not a dead master', () => {
  const cases = [
    ['standalone', () => ({ url: inject('redisUrl') })],
    ['cluster', () => ({ clusterNodes: inject('redisClusterNodes').split(',').map((n) => ({ host: n.split(':')[0]!, port: Number(n.split(':')[1]) })) })],
  ] as const;
  for (const [name, where] of cases) {
    describe(name, () => {
      let client: RedisClient;
      beforeAll(async () => {
        client = createRedis({ ...where(), commandTimeoutMs: COMMAND_TIMEOUT_MS, keyPrefix: '' }, `test-breaker-${name}`);
        await waitUntilReady(client, 'redis', 10_000);
      });
      afterAll(() => client.disconnect());

      it('commands sent before a stall may time out; the ones after it are answered', async () => {
        const key = `kg-test-breaker:{${name}}`;
        await client.set(key, 'v');
        const before = Array.from({ length: 20 }, () => client.get(key).then(() => 'answered', (err: Error) => err.message));
        stall(COMMAND_TIMEOUT_MS * 3);
        const outcomes = await Promise.all(before);
        expect(outcomes.every((o) => o === 'answered' || o === 'Command timed out')).toBe(true);
        const after = await Promise.allSettled(Array.from({ length: 20 }, () => client.get(key)));
        const refused = after.filter((a) => a.status === 'rejected').map((a) => (a as PromiseRejectedResult).reason);
        expect(refused.filter((e) => e instanceof CircuitOpenError)).toEqual([]);
        expect(refused).toEqual([]);
      });
    });
  }
});
