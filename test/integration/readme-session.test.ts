import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { PROJECT_DIR, run, spawnKeygate } from '../support/process.js';
import { recordSecret } from '../support/run-logs.js';
import { waitForWindowRoom } from '../support/time.js';

interface Step { command: string; expected: string[] }

/** The README's example session: each command line, followed by the `# → ` answers it prints. */
function readSession(): Step[] {
  const readme = readFileSync(join(PROJECT_DIR, 'README.md'), 'utf8');
  const block = /<!-- example-session:start -->\s*```sh\n([\s\S]*?)```\s*<!-- example-session:end -->/.exec(readme);
  if (!block) throw new Error('README has no example session block');
  const steps: Step[] = [];
  for (const line of block[1]!.split('\n')) {
    if (line.startsWith('# → ')) steps.at(-1)!.expected.push(line.slice('# → '.length));
    else if (line.trim() !== '') steps.push({ command: line, expected: [] });
  }
  return steps;
}

/** `…` in an expected answer stands for any text; everything else must match exactly. */
const matcher = (expected: string): RegExp =>
  new RegExp(`^${expected.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);

describe('the README example session', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-readme-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('runs as written and prints every answer the README shows', async () => {
    const steps = readSession();
    expect(steps.filter((s) => s.expected.length > 0).length).toBeGreaterThanOrEqual(10);
    const server = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY: 'choose-a-long-random-secret' });
    try {
      // The session's limit is 3 per minute: keep it inside one window.
      await waitForWindowRoom(60_000, 10_000);
      const script = steps.map((s, i) => `echo "@@STEP ${i}"\n${s.command}`).join('\n');
      const result = await run('bash', ['-c', script], { KEYGATE: server.url });
      // The keys the session creates (prefix wx), for the end-of-run search of the logs.
      for (const key of result.stdout.match(/\bwx_[1-9A-HJ-NP-Za-km-z]{16,}\b/g) ?? []) recordSecret(key);
      expect(result.stderr).toBe('');
      const outputs = result.stdout.split(/^@@STEP \d+\n/m).slice(1).map((o) => o.split('\n').filter((l) => l !== ''));
      expect(outputs.length).toBe(steps.length);
      steps.forEach((step, i) => {
        expect(outputs[i]!.length, `output of: ${step.command}`).toBe(step.expected.length);
        step.expected.forEach((answer, j) => expect(outputs[i]![j], `answer of: ${step.command}`).toMatch(matcher(answer)));
      });
    } finally {
      await server.kill();
    }
  });
});
