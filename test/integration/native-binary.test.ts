import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { PROJECT_DIR, freePort, run } from '../support/process.js';

describe('keygate refuses to run without the native uWebSockets.js binary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-nobinary-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('start-up fails with a clear message instead of falling back to the JS shim', async () => {
    // A copy of the built service whose uWebSockets.js package has no binaries, every other
    // dependency being the real one.
    cpSync(join(PROJECT_DIR, 'dist'), join(dir, 'dist'), { recursive: true });
    cpSync(join(PROJECT_DIR, 'package.json'), join(dir, 'package.json'));
    mkdirSync(join(dir, 'node_modules'));
    for (const entry of readdirSync(join(PROJECT_DIR, 'node_modules'))) {
      if (entry === 'uWebSockets.js') continue;
      symlinkSync(join(PROJECT_DIR, 'node_modules', entry), join(dir, 'node_modules', entry));
    }
    const uws = join(dir, 'node_modules', 'uWebSockets.js');
    cpSync(join(PROJECT_DIR, 'node_modules', 'uWebSockets.js'), uws, { recursive: true, filter: (src) => !src.includes('binaries') });

    const port = String(await freePort());
    const result = await run(process.execPath, [join(dir, 'dist', 'main.js')], { PORT: port, DATA_DIR: join(dir, 'data') }, dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('native uWebSockets.js HTTP engine did not load');
    expect(result.stderr).toContain('does not fall back');
    expect(result.stdout).not.toContain('keygate is listening');
  });
});
