/**
 * Real redis-server processes for tests: one standalone server, or a cluster of masters, each on a
 * free loopback port with its own temporary folder, nothing persisted, stopped by pid. Used by the
 * global setup (one standalone and one 3-master cluster shared by the whole run, see
 * redis-global-setup.ts) and by fault tests that need a cluster of their own to break.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisNode {
  readonly port: number;
  readonly pid: number;
  readonly process: ChildProcess;
  /** Stops the server (SIGKILL when `hard`), waiting for it to exit. */
  stop(hard?: boolean): Promise<void>;
}

export interface RedisCluster {
  /** `127.0.0.1:<port>` of every master, for REDIS_CLUSTER_NODES. */
  readonly nodes: readonly string[];
  readonly masters: readonly RedisNode[];
  /** Starts a stopped master again on its port with its cluster state (its slots come back). */
  restart(index: number): Promise<RedisNode>;
  stop(): Promise<void>;
}

async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free port below 55535 whose cluster bus port (+10000) is free too. */
export async function freeRedisPort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 35_000);
    if (await isFree(port) && await isFree(port + 10_000)) return port;
  }
  throw new Error('no free port pair for redis-server');
}

async function startNode(port: number, dir: string, extra: string[]): Promise<RedisNode> {
  const child = spawn('redis-server', [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir,
    '--daemonize', 'no', '--loglevel', 'warning', ...extra,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c) => { output += String(c); });
  child.stderr!.on('data', (c) => { output += String(c); });
  const exited = once(child, 'exit');
  // Ready when it answers PING.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server on ${port} exited:\n${output}`);
    if (cli(port, ['PING']).trim() === 'PONG') break;
    if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    pid: child.pid!,
    process: child,
    async stop(hard = false) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(hard ? 'SIGKILL' : 'SIGTERM');
      await exited;
    },
  };
}

/** Runs redis-cli against a local port and returns its output. */
export function cli(port: number, args: string[]): string {
  const result = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 10_000 });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`;
}

export interface RedisStandalone extends RedisNode {
  readonly url: string;
  /** Stops the server without removing its folder (kill -9 when `hard`). */
  halt(hard?: boolean): Promise<void>;
  /** Starts it again on the same port (after halt). */
  restart(): Promise<void>;
}

/** `persistent`: AOF with fsync on every write, so a restart (even after kill -9) keeps every write. */
export async function startRedisStandalone(options: { persistent?: boolean } = {}): Promise<RedisStandalone> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-redis-'));
  const port = await freeRedisPort();
  const extra = options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : [];
  let node = await startNode(port, dir, extra);
  return {
    port,
    get pid() { return node.pid; },
    get process() { return node.process; },
    url: `redis://127.0.0.1:${port}`,
    halt: (hard = false) => node.stop(hard),
    async restart() { node = await startNode(port, dir, extra); },
    async stop(hard = false) {
      await node.stop(hard);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A cluster of `size` masters without replicas, created with `redis-cli --cluster create`, with
 * `cluster-require-full-coverage no` so that a lost master affects only its own slots.
 */
export async function startRedisCluster(size = 3, options: { persistent?: boolean } = {}): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-redis-cluster-'));
  const ports: number[] = [];
  while (ports.length < size) {
    const port = await freeRedisPort();
    if (!ports.includes(port)) ports.push(port);
  }
  const clusterArgs = (port: number) => [
    '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000',
    '--cluster-require-full-coverage', 'no', '--enable-debug-command', 'local',
    // Persistent: a restarted master comes back with what it had acknowledged (AOF, fsync always).
    ...(options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always', '--appendfilename', `appendonly-${port}.aof`, '--appenddirname', `aof-${port}`] : []),
  ];
  const masters: RedisNode[] = [];
  for (const port of ports) masters.push(await startNode(port, dir, clusterArgs(port)));
  const created = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], { encoding: 'utf8', timeout: 30_000 });
  if (created.status !== 0) throw new Error(`cluster create failed:\n${created.stdout}${created.stderr}`);
  await waitForClusterOk(ports);
  return {
    nodes: ports.map((p) => `127.0.0.1:${p}`),
    masters,
    async restart(index: number) {
      const port = ports[index]!;
      masters[index] = await startNode(port, dir, clusterArgs(port));
      await waitForClusterOk(ports);
      return masters[index]!;
    },
    async stop() {
      await Promise.all(masters.map((m) => m.stop(true)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForClusterOk(ports: readonly number[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (ports.every((p) => cli(p, ['CLUSTER', 'INFO']).includes('cluster_state:ok'))) return;
    if (Date.now() > deadline) throw new Error(`cluster did not reach state ok on ${ports.join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
