/**
 * keygate as its users run it: `node dist/main.js` in a child process (built by `npm test`'s
 * pretest), on a free loopback port, stopped by pid. Output is captured for inspection, and its
 * logs go to the run's log folder with the keys it was given (run-logs.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { openRunLog, recordSecret } from './run-logs.js';

export const PROJECT_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const MAIN_JS = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
export const CLI_JS = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}

export interface ChildKeygate {
  readonly url: string;
  readonly process: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Tries when a port freePort found was taken before keygate could listen on it. */
const PORT_TRIES = 5;

/**
 * Starts `node <script>` and resolves once it logs that it listens, or, with `ready: 'liveness'`
 * (a level below info prints no such line), once /v2/liveness answers; rejects when it exits.
 * Without env.PORT it listens on a free port: between finding one and listening on it, another
 * process (a test's server, an outgoing connection of the same range) may take it, and keygate
 * refuses a taken port, so it is started again on another.
 */
export async function spawnKeygate(env: Record<string, string>, script = MAIN_JS, ready: 'log' | 'liveness' = 'log'): Promise<ChildKeygate> {
  for (let tries = 1; ; tries++) {
    try {
      return await spawnOnce(env, env.PORT ?? String(await freePort()), script, ready);
    } catch (err) {
      const taken = err instanceof Error && /cannot listen on .*the address is in use/.test(err.message);
      if (!taken || env.PORT !== undefined || tries >= PORT_TRIES) throw err;
    }
  }
}

async function spawnOnce(env: Record<string, string>, port: string, script: string, ready: 'log' | 'liveness'): Promise<ChildKeygate> {
  if (env.ROOT_KEY) recordSecret(env.ROOT_KEY);
  // NODE_FLAGS: node flags for the command line (V8's GC flags, say, which NODE_OPTIONS refuses).
  // COMMAND_PREFIX: a command that runs node in its place (`taskset -c 0`: keygate starts on one CPU).
  const { NODE_FLAGS: flags = '', COMMAND_PREFIX: prefix = '', ...childEnv } = env;
  const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '');
  const [command, ...args] = [...words(prefix), process.execPath, ...words(flags), script];
  const child = spawn(command!, args, {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...childEnv, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = openRunLog('process');
  let output = '';
  child.stdout!.on('data', (c) => { output += String(c); log?.write(c); });
  child.stderr!.on('data', (c) => { output += String(c); log?.write(c); });
  // 'close', not 'exit': the output pipes have been read to their end.
  child.once('close', () => log?.close());
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: nobody would know to stop a server that never said it listens.
      child.kill('SIGKILL');
      reject(new Error(`keygate did not start in time:\n${output}`));
    }, 15_000);
    const check = (): void => {
      if (output.includes('keygate is listening')) { clearTimeout(timer); resolve(); }
    };
    if (ready === 'log') child.stdout!.on('data', check);
    else {
      const poll = (): void => {
        if (child.exitCode !== null) return;
        void fetch(`http://127.0.0.1:${port}/v2/liveness`).then((r) => r.status === 200, () => false).then((up) => {
          if (up) { clearTimeout(timer); resolve(); } else setTimeout(poll, 100);
        });
      };
      poll();
    }
    void exited.then(() => { clearTimeout(timer); reject(new Error(`keygate exited (${child.exitCode}):\n${output}`)); });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    output: () => output,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await exited;
      return code as number | null;
    },
  };
}

/**
 * Runs a command to completion and returns its exit code and output. A keygate process (a server
 * or the CLI) has its logs written to the run's log folder: all of a server's output, the CLI's
 * stderr (its stdout is the answer, which shows a new root key once: that key is recorded).
 */
export async function run(command: string, args: string[], env: Record<string, string> = {}, cwd = PROJECT_DIR): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = args[0] === CLI_JS;
  const log = command === process.execPath ? openRunLog(cli ? 'cli' : 'process') : null;
  const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => { stdout += String(c); if (!cli) log?.write(c); });
  child.stderr.on('data', (c) => { stderr += String(c); log?.write(c); });
  const [code] = await once(child, 'close');
  log?.close();
  if (cli) recordPrintedKey(stdout);
  return { code: code as number | null, stdout, stderr };
}

/** `keygate root-key create` prints `{ …, "key": "<root key>", … }`. */
function recordPrintedKey(stdout: string): void {
  try {
    const printed = JSON.parse(stdout) as { key?: unknown };
    if (typeof printed?.key === 'string') recordSecret(printed.key);
  } catch {
    // not JSON: nothing issued
  }
}
