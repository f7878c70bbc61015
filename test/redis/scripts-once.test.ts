/**
 * A resent script call has the effect of one call. ioredis resends a command whose connection
 * closed before the reply came (a reconnect, a Cluster slot refresh), though Redis may have run
 * it: a limit check would count twice, a credits spend take twice. Here the exact command keygate
 * sent is sent again, on a standalone Redis and on the 3-master cluster.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRedis, waitUntilReady, type RedisClient } from '../../src/redis/client.js';
import { LuaScript } from '../../src/redis/scripts.js';
import { RedisRateLimiter } from '../../src/ratelimit/redis-limiter.js';
import { scripts } from '../../src/storage/redis/scripts.js';
import { calendarArgs } from '../../src/storage/redis/credits.js';

interface Sent { readonly name: string; readonly args: unknown[]; readonly reply: Promise<unknown> }

/** Records every script call the client sends (EVALSHA and EVAL), with its reply. */
function recordScripts(client: RedisClient): Sent[] {
  const sent: Sent[] = [];
  const target = client as unknown as { sendCommand(command: { name: string; args: unknown[]; promise: Promise<unknown> }, ...rest: unknown[]): unknown };
  const send = target.sendCommand.bind(target);
  target.sendCommand = (command, ...rest) => {
    if (/^eval/i.test(command.name)) sent.push({ name: command.name, args: [...command.args], reply: command.promise });
    return send(command, ...rest);
  };
  return sent;
}

/** Sends a recorded call again, as ioredis would after losing its reply (`asBuffers`: as the limiter reads replies, as bytes). */
const resend = (client: RedisClient, call: Sent, asBuffers = false): Promise<unknown> =>
  (asBuffers ? client.callBuffer : client.call).call(client, call.name, ...(call.args as (string | Buffer)[]));

const nodes = (): { host: string; port: number }[] =>
  inject('redisClusterNodes').split(',').map((n) => ({ host: n.split(':')[0]!, port: Number(n.split(':')[1]) }));

describe.each([
  ['standalone Redis', () => createRedis({ url: inject('redisUrl'), commandTimeoutMs: 2_000, keyPrefix: '' }, 'test-once')],
  ['3-master cluster', () => createRedis({ clusterNodes: nodes(), commandTimeoutMs: 2_000, keyPrefix: '' }, 'test-once')],
])('resent script calls on a %s', (_name, connect) => {
  const client = connect();
  const sent = recordScripts(client);
  beforeAll(() => waitUntilReady(client, 'test redis', 10_000));
  afterAll(() => client.disconnect());

  it('a once script answers a resent call with its first reply and writes nothing more; a new call runs', async () => {
    const script = new LuaScript('test-incr-once', "return redis.call('INCRBY', KEYS[1], ARGV[1])", true);
    const key = `kg-test:{${randomUUID()}}:n`;
    sent.length = 0;
    expect(await script.run(client, [key], [2])).toBe(2);
    const first = sent.at(-1)!;
    expect(await resend(client, first)).toBe(2);
    expect(await client.get(key)).toBe('2');
    expect(await script.run(client, [key], [3])).toBe(5);
    // What `once` prevents: the same script without it runs again when resent.
    const plain = new LuaScript('test-incr', "return redis.call('INCRBY', KEYS[1], ARGV[1])");
    expect(await plain.run(client, [key], [1])).toBe(6);
    expect(await resend(client, sent.at(-1)!)).toBe(7);
  });

  it('a resent limit check counts once', async () => {
    const limiter = new RedisRateLimiter({ client, keyPrefix: `kg-test:${randomUUID()}:`, failMode: 'closed', log: pino({ level: 'silent' }) });
    const group = { checks: [{ counter: 'api-calls', owner: `user-${randomUUID()}`, limit: 10, durationMs: 60_000, cost: 1 }] };
    sent.length = 0;
    const [first] = await limiter.limit([group]);
    expect(first!.results[0]!.remaining).toBe(9);
    const call = sent.at(-1)!; // the EVAL after a NOSCRIPT, when the script was new to the node
    expect(await resend(client, call, true)).toEqual(await call.reply);
    const [next] = await limiter.limit([group]);
    expect(next!.results[0]!.remaining).toBe(8);
    await limiter.close();
  });

  it('a resent credits spend takes once', async () => {
    const key = `kg-test:key:{${randomUUID()}}:rec`;
    await client.hset(key, 'cr', '10');
    sent.length = 0;
    const args = ['spend', ...calendarArgs(Date.now()), 3];
    const [status, remaining] = await scripts.creditsChange.run(client, [key], args) as string[];
    expect([status, remaining]).toEqual(['ok', '7']);
    expect(await resend(client, sent.at(-1)!)).toEqual(['ok', '7', '', '', '', '']);
    expect(await client.hget(key, 'cr')).toBe('7');
    expect((await scripts.creditsChange.run(client, [key], args) as string[])[1]).toBe('4');
  });

  it('a resent record write is answered as the success it was, not as a version conflict', async () => {
    const key = `kg-test:api:{${randomUUID()}}:rec`;
    sent.length = 0;
    expect(await scripts.recordCas.run(client, [key], ['0', 'record-bytes'])).toBe(1);
    expect(await resend(client, sent.at(-1)!)).toBe(1);
    expect(await client.hget(key, 'v')).toBe('1');
  });
});
