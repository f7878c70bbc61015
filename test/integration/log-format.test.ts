/**
 * LOG_FORMAT: JSON lines by default when stdout is not a terminal (a log collector), readable
 * lines with `pretty`; the per-request line comes in either form.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { spawnKeygate } from '../support/process.js';

const ROOT_KEY = 'log-format-root-key-0123456789';

describe('LOG_FORMAT', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-logformat-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const session = async (format?: string): Promise<string[]> => {
    const keygate = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY, ...(format ? { LOG_FORMAT: format } : {}) });
    try {
      const res = await callKeygate(keygate.url, '/v2/apis.createApi', { name: 'log-format' }, { rootKey: ROOT_KEY });
      expect(res.status).toBe(200);
      // Request lines are written in batches, at most 50 ms later.
      for (let waited = 0; !keygate.output().includes('apis.createApi') && waited < 2_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await keygate.kill();
    }
    // Colours (pino-pretty's) are left out of the comparison.
    return stripVTControlCharacters(keygate.output()).split('\n').filter((line) => line.trim() !== '');
  };

  test('default (stdout is a pipe): every line is a JSON object', async () => {
    const lines = await session();
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(lines.map((l) => JSON.parse(l) as { msg: string; procedure?: string }).some((l) => l.msg === 'request' && l.procedure === 'apis.createApi')).toBe(true);
  });

  test('pretty: readable lines, not JSON, with the same messages', async () => {
    const lines = await session('pretty');
    expect(lines.some((l) => l.includes('keygate is listening'))).toBe(true);
    // pino-pretty puts the message on one line and each field on its own line below it.
    expect(lines.some((l) => /INFO: request$/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes('procedure') && l.includes('"apis.createApi"'))).toBe(true);
    for (const line of lines.filter((l) => l.startsWith('{'))) expect(() => JSON.parse(line)).toThrow();
    expect(lines.some((l) => { try { JSON.parse(l); return true; } catch { return false; } })).toBe(false);
  });
});
