/**
 * Verification records written on the event loop (ANALYTICS_WRITER=event-loop, and what `auto`
 * picks for an embedded keygate that may use one CPU) are counted as exactly as the writer
 * thread's: every verification once, in the raw table and in the rollups.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { spawnKeygate, type ChildKeygate } from '../support/process.js';

const VALID = 300;
const DISABLED = 120;

describe('analytics records written on the event loop', () => {
  let h: Harness & { stop(): Promise<void> };

  beforeAll(async () => { h = await startHarness({ analyticsWriter: 'event-loop' }); });
  afterAll(async () => { await h?.stop(); });

  test('every verification is counted once, in the raw table and in every rollup', async () => {
    expect(h.keygate.services.recorder.stats().onThread).toBe(false);
    const apiId = await h.createApi();
    const live = await h.createKey({ apiId });
    const off = await h.createKey({ apiId, enabled: false });
    const verifications = [...Array<string>(VALID).fill(live.key), ...Array<string>(DISABLED).fill(off.key)];
    // Many at once, so that batches of the event loop's writer hold records of both keys.
    for (let i = 0; i < verifications.length; i += 60) {
      const answers = await Promise.all(verifications.slice(i, i + 60).map((key) => h.verify(key)));
      for (const a of answers) expect(a.status).toBe(200);
    }
    const query = async (sql: string): Promise<unknown[]> => {
      const res = await h.call<{ data: unknown[] }>('analytics.getVerifications', { query: sql });
      expect(res.status).toBe(200);
      return res.body.data;
    };
    expect(await query(`SELECT outcome, count(*) AS n FROM key_verifications_v1 WHERE api_id = '${apiId}' GROUP BY outcome ORDER BY outcome`))
      .toEqual([{ outcome: 'DISABLED', n: DISABLED }, { outcome: 'VALID', n: VALID }]);
    for (const table of ['minute', 'hour', 'day', 'month']) {
      expect(await query(`SELECT outcome, sum(count) AS n FROM key_verifications_per_${table}_v1 WHERE api_id = '${apiId}' GROUP BY outcome ORDER BY outcome`))
        .toEqual([{ outcome: 'DISABLED', n: DISABLED }, { outcome: 'VALID', n: VALID }]);
    }
  });
});

describe('ANALYTICS_WRITER=auto', () => {
  const servers: ChildKeygate[] = [];
  afterAll(async () => { for (const s of servers) await s.kill(); });

  /** keygate_analytics_writer_thread of a keygate started with `env`. */
  const writerThreadGauge = async (env: Record<string, string>): Promise<number> => {
    const server = await spawnKeygate({ DATA_DIR: mkdtempSync(join(tmpdir(), 'keygate-writer-')), ...env });
    servers.push(server);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const line = /^keygate_analytics_writer_thread (\d+)$/m.exec(text);
    expect(line, text).not.toBeNull();
    return Number(line![1]);
  };

  test('an embedded keygate started on one CPU writes on the event loop; on more, or when told, on the thread', async () => {
    expect(spawnSync('taskset', ['-c', '0', 'true']).status, 'taskset (util-linux) is needed').toBe(0);
    expect(await writerThreadGauge({ COMMAND_PREFIX: 'taskset -c 0' })).toBe(0);
    expect(await writerThreadGauge({ COMMAND_PREFIX: 'taskset -c 0', ANALYTICS_WRITER: 'thread' })).toBe(1);
    expect(await writerThreadGauge({ COMMAND_PREFIX: 'taskset -c 0,1' })).toBe(1);
  });
});
