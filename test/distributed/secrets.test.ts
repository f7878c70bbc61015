/**
 * The distributed mode keeps no plaintext either: after a session of the usual procedures (and
 * hostile requests carrying keys in the wrong places), every key name and every value in Redis,
 * read by type, and every log line at trace level are searched for each plaintext key and root key.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { foreignKey } from '../support/migrations.js';
import { CLI_JS, run } from '../support/process.js';
import { startRedisStandalone, type RedisStandalone } from '../support/redis-servers.js';
import { ok, startReplicas, type Replicas } from '../support/replicas.js';

/** Every key name and value of the server, as raw bytes. */
async function everything(redis: Redis): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (const key of await redis.keysBuffer('*')) {
    parts.push(key);
    const type = await redis.type(key);
    if (type === 'string') parts.push((await redis.getBuffer(key))!);
    else if (type === 'hash') parts.push(...await redis.hgetallBuffer(key).then((h) => Object.entries(h).flatMap(([f, v]) => [Buffer.from(f), v])));
    else if (type === 'zset') parts.push(...await redis.zrangeBuffer(key, 0, -1));
    else if (type === 'set') parts.push(...await redis.smembersBuffer(key));
    else if (type === 'list') parts.push(...await redis.lrangeBuffer(key, 0, -1));
    else if (type === 'none') continue; // expired since the listing (a resend guard's reply): it holds nothing now
    else throw new Error(`unexpected Redis type ${type} at ${key.toString()}`);
  }
  return Buffer.concat(parts);
}

describe('distributed: plaintext keys are never stored or logged', () => {
  let redis: RedisStandalone;
  let r: Replicas;
  beforeAll(async () => {
    redis = await startRedisStandalone();
    r = await startReplicas(2, { REDIS_CLUSTER_NODES: '', REDIS_URL: redis.url, LOG_LEVEL: 'trace' });
  }, 60_000);
  afterAll(async () => {
    await r?.stop();
    await redis?.stop(true);
  });

  test('no API key or root key in any Redis key or value, nor in the logs', async () => {
    const cli = await run(process.execPath, [CLI_JS, 'root-key', 'create', '--name', 'ops', '--all-permissions'], { REDIS_URL: redis.url, REDIS_KEY_PREFIX: r.keyPrefix });
    expect(cli.code).toBe(0);
    const cliKey = JSON.parse(cli.stdout).key as string;
    const secrets = [r.rootKey, cliKey];
    const call = (i: number, procedure: string, body: unknown, rootKey = cliKey, raw?: string) =>
      callKeygate(r.processes[i % 2]!.url, `/v2/${procedure}`, body, { rootKey, raw });

    const { apiId } = await ok(call(0, 'apis.createApi', { name: 'secret-api' }));
    for (let i = 0; i < 4; i++) {
      const { key, keyId } = (await call(i, 'keys.createKey', { apiId, prefix: 'sk', externalId: `user_${i}`, credits: { remaining: 3 } })).body.data;
      secrets.push(key);
      await call(i + 1, 'keys.verifyKey', { key }, r.rootKey);
      await call(i, 'keys.verifyKey', { key, permissions: 'a AND' });
      await call(i, 'keys.verifyKey', {}, key);
      await call(i, 'keys.verifyKey', undefined, r.rootKey, `{"key":"${key}"`);
      await call(i, 'keys.verifyKey', { key, [key]: 1 }, r.rootKey);
      await call(i, 'apis.createApi', { name: key }, key);
      const rerolled = (await call(i, 'keys.rerollKey', { keyId, expiration: 0 })).body.data;
      secrets.push(rerolled.key);
      await call(i + 1, 'keys.whoami', { key: rerolled.key });
    }
    const migration = await run(process.execPath, [CLI_JS, 'migration', 'create', '--algorithm', 'sha256'], { REDIS_URL: redis.url, REDIS_KEY_PREFIX: r.keyPrefix });
    const legacy = foreignKey();
    await ok(call(0, 'keys.migrateKeys', { migrationId: JSON.parse(migration.stdout).id, apiId, keys: [{ hash: legacy.hex }] }));
    await call(1, 'keys.verifyKey', { key: legacy.plaintext });
    secrets.push(legacy.plaintext);

    const client = new Redis(redis.url);
    let stored: Buffer;
    try {
      stored = await everything(client);
    } finally {
      client.disconnect();
    }
    expect(stored.length).toBeGreaterThan(1_000);
    const logs = r.processes.map((p) => p.output()).join('\n') + cli.stderr;
    expect(logs).toContain('"requestId"');
    for (const secret of secrets) {
      expect(stored.includes(Buffer.from(secret)), 'a plaintext key is stored in Redis').toBe(false);
      expect(logs.includes(secret), 'a plaintext key is in the logs').toBe(false);
    }
  }, 60_000);
});
