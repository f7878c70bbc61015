/**
 * `npm run bench:hot-path` (bench/README.md, "keygate's own cost"): it drives keygate's real
 * verifyKey route through stand-ins for uWS's request and response, so a change of how keygate
 * talks to uWS can break the tool without breaking the server. A short run of each scenario must
 * complete (the tool stops when an answer is not 200) and print its table, and so must a comparison
 * of two variants run at the same time in fresh processes (--together, --starts).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PROJECT_DIR } from '../support/process.js';

interface Run { code: number | null; stdout: string; stderr: string }

function hotPath(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/hot-path.ts', ...args], {
    cwd: PROJECT_DIR, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => { stdout += String(c); });
  child.stderr.on('data', (c) => { stderr += String(c); });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('bench:hot-path', () => {
  it.each(['one', 'limits'])('runs the %s scenario against the built server and prints verifications per second', async (scenario) => {
    const run = await hotPath(['--scenario', scenario, '--keys', '20', '--identities', '2', '--rounds', '1', '--seconds', '1']);
    expect(run.stderr).not.toMatch(/failed|Error/);
    expect(run.code).toBe(0);
    const row = run.stdout.split('\n').find((line) => line.startsWith('| dist |'));
    expect(row, run.stdout).toBeDefined();
    // | dist | 12.3k (12.3) | 1.000 | event loop µs | other threads µs | all threads µs |
    const [perSecond, , eventLoopUs] = row!.split('|').slice(2, 5).map((cell) => Number.parseFloat(cell));
    expect(perSecond).toBeGreaterThan(0);
    expect(eventLoopUs).toBeGreaterThan(0);
  }, 120_000);

  it('compares two variants run at the same time, each started twice, by the starts\' ratios', async () => {
    const run = await hotPath(['--env', 'LOG_LEVEL=info', '--env', 'LOG_LEVEL=warn', '--together', '--starts', '2',
      '--keys', '20', '--rounds', '1', '--seconds', '1']);
    expect(run.stderr).not.toMatch(/failed|Error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('2 starts of 1 rounds of 1 s');
    expect(run.stdout).toContain('the variants at the same time');
    const rows = run.stdout.split('\n').filter((line) => /^\| \S*main\.js LOG_LEVEL=/.test(line));
    expect(rows, run.stdout).toHaveLength(2);
    // | variant | 12.3k (12.3 12.1) | 1.000 (1.000–1.000) | …: two rounds, one per start, and a ratio with its range.
    const cells = rows.map((row) => row.split('|').slice(2, 4));
    for (const [perSecond] of cells) expect(perSecond!.trim()).toMatch(/^[\d.]+k \([\d.]+ [\d.]+\)$/);
    expect(cells[0]![1]!.trim()).toBe('1.000 (1.000–1.000)');
    expect(cells[1]![1]!.trim()).toMatch(/^\d\.\d{3} \(\d\.\d{3}–\d\.\d{3}\)$/);
  }, 180_000);
});
