/**
 * The run's log folder (made by log-scan-global-setup.ts): every keygate the tests start, in
 * process (harness.ts) or as a child process (process.ts), writes its log output to a file there,
 * and every plaintext API key and root key the tests were issued is recorded beside the logs. At
 * the end of the run the global teardown searches every log file for every recorded key (no log
 * line of a whole test run may contain one). Outside a vitest run (bench/ reuses these helpers)
 * nothing is written.
 */
import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, inject } from 'vitest';
import { RUN_DIR_ENV, SECRETS_DIR } from './log-scan.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testRunDir: string;
  }
}

let runDirCache: string | null | undefined;

/** The run's log folder; null outside a vitest run. */
export function runDir(): string | null {
  if (runDirCache !== undefined) return runDirCache;
  let dir = process.env[RUN_DIR_ENV] ?? null;
  if (dir === null) {
    try {
      dir = inject('testRunDir') ?? null;
    } catch {
      dir = null; // not inside vitest
    }
  }
  return runDirCache = dir;
}

/** The test file running now, as a file-name-safe label (`test~routes~keys~…~200.test.ts`). */
function testLabel(): string {
  try {
    const path = expect.getState().testPath;
    if (path) return relative(process.cwd(), path).replace(/[\\/]/g, '~');
  } catch {
    // outside a test file's context
  }
  return 'run';
}

let opened = 0;

/** One log output, appended synchronously so that nothing is lost when a worker exits. */
export interface RunLog {
  write(chunk: string | Buffer): void;
  close(): void;
}

/**
 * A log file for one keygate (`kind`: harness, process, cli), made at its first line (a CLI that
 * printed nothing leaves no empty file); null outside a vitest run.
 */
export function openRunLog(kind: string): RunLog | null {
  const dir = runDir();
  if (dir === null) return null;
  const path = join(dir, `${testLabel()}.${kind}.${process.pid}-${++opened}.log`);
  let fd: number | null = null;
  return {
    // Opened again if a line comes after close (a timer of a stopped server): it is searched too.
    write(chunk) {
      fd ??= openSync(path, 'a');
      writeSync(fd, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}

/** Records a plaintext key or root key the tests hold, for the end-of-run search of the logs. */
export function recordSecret(secret: string): void {
  const dir = runDir();
  if (dir !== null) appendFileSync(join(dir, SECRETS_DIR, `${process.pid}.txt`), `${secret}\n`);
}

/**
 * Records the key in an answer that issues one: keys.createKey, keys.rerollKey,
 * rootKeys.createRootKey (`path` ends with the procedure; the dashboard calls the same paths).
 */
export function recordIssuedKey(path: string, body: unknown): void {
  if (!/(keys\.(createKey|rerollKey)|rootKeys\.createRootKey)$/.test(path)) return;
  const key = (body as { data?: { key?: unknown } } | null)?.data?.key;
  if (typeof key === 'string') recordSecret(key);
}
