/**
 * At start-up in the distributed mode keygate reads each Redis master's AOF settings and says
 * what they mean for acknowledged writes: a warning naming the risk when AOF is off, a note that
 * it could not look when CONFIG is renamed (managed Redis), and with REDIS_REQUIRE_AOF=true a
 * refusal to start instead. Real redis-servers configured each way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHarness } from '../support/harness.js';
import { freePort, MAIN_JS, run } from '../support/process.js';
import { startRedisStandalone, type RedisStandalone } from '../support/redis-servers.js';

const AOF_OFF = 'AOF is off at this Redis master (appendonly no): writes keygate acknowledged are lost if it restarts';
const UNCHECKED = 'could not check whether AOF is on at this Redis master';

/** The log of a keygate started on `redis` and stopped again at once. */
async function startupLog(redis: RedisStandalone): Promise<string> {
  const h = await startHarness({ redis: { url: redis.url, commandTimeoutMs: 1_000, keyPrefix: 'kg-test-aof:' } });
  await h.stop();
  return h.logs();
}

/** `npm start` as an operator runs it, with REDIS_REQUIRE_AOF=true: its exit code and output. */
async function startRequiringAof(redis: RedisStandalone): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-aof-'));
  try {
    const result = await run(process.execPath, [MAIN_JS], {
      REDIS_URL: redis.url, REDIS_REQUIRE_AOF: 'true', PORT: String(await freePort()), DATA_DIR: dataDir, HOST: '127.0.0.1',
    });
    return { code: result.code, output: result.stdout + result.stderr };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('distributed: the Redis persistence check at start-up', () => {
  let aofOff: RedisStandalone;
  let aofOn: RedisStandalone;
  let noConfig: RedisStandalone;
  beforeAll(async () => {
    [aofOff, aofOn, noConfig] = await Promise.all([
      startRedisStandalone(),
      startRedisStandalone({ persistent: true }),
      // As on managed Redis, where CONFIG is renamed or disabled.
      startRedisStandalone({ extra: ['--rename-command', 'CONFIG', ''] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([aofOff, aofOn, noConfig].map((redis) => redis?.stop(true)));
  });

  test('a master with AOF off gets a warning that names the risk and the master', async () => {
    const log = await startupLog(aofOff);
    const line = log.split('\n').find((l) => l.includes(AOF_OFF));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 40, redis: `127.0.0.1:${aofOff.port}`, appendonly: 'no' });
  });

  test('a master with AOF on gets no warning', async () => {
    const log = await startupLog(aofOn);
    expect(log).not.toContain(AOF_OFF);
    expect(log).not.toContain(UNCHECKED);
    expect(log).toContain('Redis persistence checked: AOF is on');
  });

  test('CONFIG unavailable: keygate says it could not check, and starts', async () => {
    const log = await startupLog(noConfig);
    expect(log).toContain(UNCHECKED);
    expect(log).toContain('keygate is listening');
  });

  test('REDIS_REQUIRE_AOF=true refuses to start on a master with AOF off, or one it cannot check', async () => {
    for (const redis of [aofOff, noConfig]) {
      const { code, output } = await startRequiringAof(redis);
      expect(code).toBe(1);
      expect(output).toContain('keygate: REDIS_REQUIRE_AOF is set, but AOF is not known to be on at every Redis master');
      expect(output).toContain(`127.0.0.1:${redis.port}`);
      expect(output).not.toContain('keygate is listening');
    }
  });
});
