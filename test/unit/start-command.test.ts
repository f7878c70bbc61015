/**
 * Every way of starting the server gives node the same flags: `npm start` (package.json, which the
 * tests and the bench copy through test/support/process.ts), the container's CMD, and the
 * `keygate` command's shebang (`npx keygate serve`). A flag added to one and not the others would
 * make the container or the CLI run differently from what the tests and the bench measured.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CLI_JS, PROJECT_DIR, startScriptFlags } from '../support/process.js';

const read = (path: string): string => readFileSync(join(PROJECT_DIR, path), 'utf8');

describe('the node flags keygate is started with', () => {
  const flags = startScriptFlags();

  test('npm start sizes V8\'s helper threads to the CPUs the process may use', () => {
    expect(flags).toContain('--v8-pool-size=0');
  });

  test('the container starts the server with the flags of npm start', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1]!)).toEqual(['node', ...flags, 'dist/main.js']);
  });

  test('the keygate command (src and its build) runs node with the flags of npm start', () => {
    const shebang = `#!/usr/bin/env -S node ${flags.join(' ')}`;
    expect(read('src/cli.ts').split('\n')[0]).toBe(shebang);
    expect(readFileSync(CLI_JS, 'utf8').split('\n')[0]).toBe(shebang);
  });
});
