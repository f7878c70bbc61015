/**
 * Verification records written on the event loop (ANALYTICS_WRITER=event-loop) are counted as
 * exactly as the writer thread's: every verification once, in the raw table and in the rollups.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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

describe('ANALYTICS_WRITER', () => {
  const servers: ChildKeygate[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const s of servers) await s.kill();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** keygate_analytics_writer_thread of a keygate started with `env`. */
  const writerThreadGauge = async (env: Record<string, string>): Promise<number> => {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-writer-'));
    dirs.push(dir);
    const server = await spawnKeygate({ DATA_DIR: dir, ...env });
    servers.push(server);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const line = /^keygate_analytics_writer_thread (\d+)$/m.exec(text);
    expect(line, text).not.toBeNull();
    return Number(line![1]);
  };

  test('records go to the writer thread unless the event loop is asked for', async () => {
    expect(await writerThreadGauge({})).toBe(1);
    expect(await writerThreadGauge({ ANALYTICS_WRITER: 'event-loop' })).toBe(0);
  });
});
