/**
 * The search behind "no log line of a whole test run contains a key": every log file of the run
 * folder against every plaintext key the tests recorded (run-logs.ts). Plain Node (no vitest
 * import), because the global teardown that runs it is outside the test workers.
 *
 * Fast enough for tens of MB and thousands of keys: a key can only occur inside a run of
 * key characters at least as long as itself, so only such runs are looked at, and each of their
 * positions costs one map lookup by the key's first characters (no key-by-key search of a line).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the global setup tells the workers the run folder is (inherited by forked workers). */
export const RUN_DIR_ENV = 'KEYGATE_TEST_RUN_DIR';
/** The run folder's subfolder of recorded keys (one file per worker process). */
export const SECRETS_DIR = 'secrets';

/** Characters keys are made of (keygate's `<prefix>_<base58>`, root keys, the tests' ROOT_KEYs). */
const KEY_RUN = /[A-Za-z0-9_.-]+/g;
/** Characters of a key looked up at each position of a run. */
const LOOKUP = 12;

export interface Leak {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly secret: string;
}

/** A leak as it may be printed: never the key itself, only its first 6 characters and length. */
export const describeLeak = (leak: Leak): string =>
  `${leak.file}:${leak.line}: contains a recorded key (starts '${leak.secret.slice(0, 6)}', ${leak.secret.length} characters)`;

/** A search for `secrets`: given a file's name and text, every line that contains one of them. */
export function leakFinder(secrets: readonly string[]): (file: string, text: string) => Leak[] {
  const byStart = new Map<string, string[]>();
  // Keys shorter than a lookup or made of other characters: searched for in each line directly.
  const odd: string[] = [];
  for (const secret of new Set(secrets)) {
    if (secret.length < LOOKUP || secret.replace(KEY_RUN, '') !== '') {
      odd.push(secret);
      continue;
    }
    const start = secret.slice(0, LOOKUP);
    byStart.set(start, [...byStart.get(start) ?? [], secret]);
  }
  return (file, text) => {
    const leaks: Leak[] = [];
    text.split('\n').forEach((line, index) => {
      const found = new Set<string>();
      for (const [run] of line.matchAll(KEY_RUN)) {
        for (let at = 0; at + LOOKUP <= run.length; at++) {
          for (const secret of byStart.get(run.slice(at, at + LOOKUP)) ?? []) if (run.startsWith(secret, at)) found.add(secret);
        }
      }
      for (const secret of odd) if (line.includes(secret)) found.add(secret);
      for (const secret of found) leaks.push({ file, line: index + 1, secret });
    });
    return leaks;
  };
}

export interface ScanResult {
  readonly files: number;
  readonly bytes: number;
  readonly secrets: number;
  readonly leaks: readonly Leak[];
}

/** Searches every `*.log` of the run folder for every key recorded in its secrets folder. */
export function scanRunDir(dir: string): ScanResult {
  const secretsDir = join(dir, SECRETS_DIR);
  const secrets = [...new Set(readdirSync(secretsDir)
    .flatMap((name) => readFileSync(join(secretsDir, name), 'utf8').split('\n'))
    .filter((secret) => secret !== ''))];
  const logs = readdirSync(dir).filter((name) => name.endsWith('.log')).sort();
  const find = leakFinder(secrets);
  let bytes = 0;
  const leaks: Leak[] = [];
  for (const name of logs) {
    const text = readFileSync(join(dir, name), 'utf8');
    bytes += text.length;
    leaks.push(...find(join(dir, name), text));
  }
  return { files: logs.length, bytes, secrets: secrets.length, leaks };
}
