/**
 * Vitest global setup: one log folder per run (test-artifacts/logs/<run>/) where every keygate the
 * tests start writes its logs and every key the tests were issued is recorded (run-logs.ts). The
 * teardown, after the last test, searches all those logs for all those keys and fails the run on
 * any hit (exit code 1), naming the file and line, never the key. Listed first in the config, so
 * that its teardown runs last, after every server of the run has stopped writing.
 *
 * Vitest runs a global setup once per project (and for the root project), all in this process;
 * the first one makes the folder and the last teardown searches it.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { describeLeak, RUN_DIR_ENV, scanRunDir, SECRETS_DIR } from './log-scan.js';

const LOGS_ROOT = fileURLToPath(new URL('../../test-artifacts/logs/', import.meta.url));
/** Finished runs whose logs are kept for reading after the fact; older ones are removed. */
const RUNS_KEPT = 3;
/** Leaks printed; the count covers the rest. */
const LEAKS_SHOWN = 20;

interface RunState {
  readonly dir: string;
  users: number;
}

/** Shared by the setups of all projects: they run in this one process, each module loaded anew. */
const STATE = Symbol.for('keygate.test-run-logs');
const shared = globalThis as { [STATE]?: RunState };

/** Whether the vitest process that made a run folder (`<time>-<pid>`) still runs. */
function inProgress(run: string): boolean {
  try {
    process.kill(Number(run.slice(run.lastIndexOf('-') + 1)), 0);
    return true;
  } catch {
    return false;
  }
}

function startRun(): RunState {
  // Another run in this checkout may be going on: its folder is left alone.
  const finished = readdirSync(LOGS_ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !inProgress(e.name)).map((e) => e.name).sort();
  for (const old of finished.slice(0, Math.max(0, finished.length - RUNS_KEPT))) rmSync(join(LOGS_ROOT, old), { recursive: true, force: true });
  const dir = join(LOGS_ROOT, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  mkdirSync(join(dir, SECRETS_DIR), { recursive: true });
  // Forked workers inherit this process's environment; they read the folder from it.
  process.env[RUN_DIR_ENV] = dir;
  return { dir, users: 0 };
}

export default function setup(project: TestProject): () => void {
  mkdirSync(LOGS_ROOT, { recursive: true });
  const state = shared[STATE] ??= startRun();
  state.users++;
  project.provide('testRunDir', state.dir);
  return () => {
    if (--state.users > 0) return;
    delete shared[STATE];
    const started = Date.now();
    const result = scanRunDir(state.dir);
    // The recorded keys are no longer needed; the logs stay for reading.
    rmSync(join(state.dir, SECRETS_DIR), { recursive: true, force: true });
    const summary = `${result.secrets} keys searched for in ${result.files} log files (${(result.bytes / 1e6).toFixed(1)} MB, ${Date.now() - started} ms)`;
    if (result.leaks.length === 0) {
      process.stdout.write(`log scan: ${summary}: none found. Logs: ${state.dir}\n`);
      return;
    }
    const shown = result.leaks.slice(0, LEAKS_SHOWN).map(describeLeak);
    const more = result.leaks.length > LEAKS_SHOWN ? [`… and ${result.leaks.length - LEAKS_SHOWN} more`] : [];
    const report = `log scan: a plaintext key is in the logs of this run (${summary}):\n  ${[...shown, ...more].join('\n  ')}`;
    process.stderr.write(`${report}\n`);
    // Not a throw: vitest only logs a teardown error (exit code 0), and it would skip the
    // teardowns after this one, leaving Redis servers running. The exit code is what CI reads.
    process.exitCode = 1;
  };
}
