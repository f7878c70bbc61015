/**
 * The bench's operator mode (`bench/run.ts --url … --root-key …`) against a real keygate that
 * already holds an API, a key and an identity of its own: it loads, prints its table, removes all
 * it created (also when interrupted), never prints a key, and leaves the deployment's own records
 * as they were.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.js';
import { PROJECT_DIR } from '../support/process.js';

// warn: at info the harness would keep a log line per request of the load in memory.
const h = useHarness({ logLevel: 'warn' });
const SHORT_RUN = ['--quick', '--duration', '1', '--rate-duration', '1', '--keys', '50', '--identities', '3'];
const SCENARIOS = ['verifyKeyOne', 'verifyKey', 'verifyKeyLimits', 'verifyKeyUnknown', 'createKey'];
/** A key the bench created (prefix kgb), as keygate prints it: never in the bench's output. */
const BENCH_KEY = /kgb_[A-Za-z0-9]{8,}/;

interface Run { code: number | null; stdout: string; stderr: string }

/** Runs the operator mode; `onStdout` sees the output so far (to interrupt it). */
function bench(args: string[], env: Record<string, string> = {}, onStdout?: (all: string, child: ReturnType<typeof spawn>) => void): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--url', h.url, ...args], {
    cwd: PROJECT_DIR, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => { stdout += String(c); onStdout?.(stdout, child); });
  child.stderr.on('data', (c) => { stderr += String(c); });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

let ownApiId: string;
let ownKey: string;

beforeAll(async () => {
  ownApiId = await h.createApi('own-api');
  await h.createIdentity({ externalId: 'own-identity' });
  ownKey = (await h.createKey({ apiId: ownApiId, prefix: 'own', externalId: 'own-identity' })).key;
});

function expectNoSecrets(run: Run): void {
  const all = run.stdout + run.stderr;
  expect(all).not.toMatch(BENCH_KEY);
  expect(all).not.toContain(h.adminKey);
}

/** Nothing of the bench is left, and the deployment's own API, identity and key are as they were. */
async function expectOnlyOwnRecords(run: Run): Promise<void> {
  const apis = await h.call<{ data: { id: string; name: string }[] }>('apis.listApis', { limit: 100 });
  expect(apis.body.data).toEqual([{ id: ownApiId, name: 'own-api' }]);
  const identities = await h.call<{ data: { externalId: string }[] }>('identities.listIdentities', { limit: 100 });
  expect(identities.body.data.map((i) => i.externalId)).toEqual(['own-identity']);
  const benchApiId = /created API keygate-bench-[0-9a-f]+ \((api_\w+)\)/.exec(run.stdout)?.[1];
  expect(benchApiId).toBeDefined();
  // Keys of a deleted API stay stored unless deleted one by one: the store must hold none.
  expect(await h.keygate.services.storage.keys.listByApi(benchApiId!, { limit: 10 })).toEqual([]);
  expect((await h.keygate.services.storage.apis.get(benchApiId!))?.deletedAt).toBeDefined();
  const ownKeys = await h.call<{ data: unknown[] }>('apis.listKeys', { apiId: ownApiId });
  expect(ownKeys.body.data).toHaveLength(1);
  const verified = await h.verify(ownKey);
  expect(verified.body.data).toMatchObject({ valid: true, code: 'VALID', identity: { externalId: 'own-identity' } });
}

describe('bench operator mode', () => {
  it('loads the deployment, prints a row per scenario, removes what it created and prints no key', async () => {
    const run = await bench([...SHORT_RUN, '--root-key', h.adminKey]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    for (const id of SCENARIOS) expect(run.stdout).toMatch(new RegExp(`^\\| deployment \\| ${id} \\| \\d+\\.\\dk \\(`, 'm'));
    expect(run.stdout).not.toContain('| ratelimitLimit |');
    expect(run.stdout).toMatch(/removed \d+ keys, 3 identities, API keygate-bench-/);
    expectNoSecrets(run);
    await expectOnlyOwnRecords(run);
    const resultsFile = /^results: (.+\.json)$/m.exec(run.stdout)?.[1];
    expect(resultsFile?.startsWith(join(PROJECT_DIR, 'bench', 'results', 'remote-'))).toBe(true);
    const saved = readFileSync(resultsFile!, 'utf8');
    rmSync(resultsFile!);
    expect(saved).not.toMatch(BENCH_KEY);
    expect(saved).not.toContain(h.adminKey);
  }, 60_000);

  it('on SIGINT during the load stops it, still removes everything and exits 130', async () => {
    let interrupted = false;
    const run = await bench(['--quick', '--duration', '3', '--keys', '50', '--identities', '3'], { KEYGATE_ROOT_KEY: h.adminKey }, (out, child) => {
      if (!interrupted && /… round 1 \w+/.test(out)) { interrupted = true; child.kill('SIGINT'); }
    });
    expect(interrupted).toBe(true);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('SIGINT');
    expect(run.stdout).toMatch(/✓ round 1 \w+ +stopped/);
    expect(run.stdout).toMatch(/removed \d+ keys, 3 identities, API keygate-bench-/);
    expect(run.stdout).not.toContain('## Results');
    expectNoSecrets(run);
    await expectOnlyOwnRecords(run);
  }, 30_000);

  it('refuses a root key without the permissions it needs, naming them, before creating anything', async () => {
    const weak = await h.rootKey(['api.*.verify_key', 'api.*.create_api', 'api.*.create_key']);
    const run = await bench([...SHORT_RUN, '--root-key', weak]);
    expect(run.code).toBe(2);
    for (const missing of ['api.*.delete_api', 'api.*.read_key', 'identity.*.delete_identity']) expect(run.stderr).toContain(missing);
    expect(run.stdout).not.toContain('created API');
    expect(run.stderr + run.stdout).not.toContain(weak);
    const apis = await h.call<{ data: unknown[] }>('apis.listApis', {});
    expect(apis.body.data).toHaveLength(1);
  }, 30_000);

  it('refuses --url without a root key', async () => {
    const run = await bench(SHORT_RUN);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--url needs a root key');
  }, 30_000);
});
