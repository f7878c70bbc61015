/**
 * Real redis-server processes for tests: one standalone server, or a cluster of masters, each on a
 * free loopback port with its own temporary folder, nothing persisted, stopped by pid. Used by the
 * global setup (one standalone and one 3-master cluster shared by the whole run, see
 * redis-global-setup.ts) and by fault tests that need a cluster of their own to break.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import calculateSlot from 'cluster-key-slot';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  /** Replica nodes (`replicas` per master when asked for), in no particular order. */
  readonly replicas: readonly RedisNode[];
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

/**
 * The kernel's range for ports it picks itself (outgoing connections, listen on port 0), read
 * once; Linux's default when it cannot be read.
 */
const EPHEMERAL_FROM = ((): number => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
})();

/**
 * A free port whose cluster bus port (+10000) is free too, both below the kernel's own range: a
 * server stopped and started again on its port (restart) would otherwise find it taken meanwhile
 * by some process's outgoing connection or a listener on port 0.
 */
export async function freeRedisPort(): Promise<number> {
  // Ports below 20,000 whose bus ports (20,000 and up) can never be another server's port; a kernel
  // range that starts too low leaves no such room: then any port whose bus port fits.
  const [lowest, highest] = EPHEMERAL_FROM - 10_001 > 11_000 ? [10_000, Math.min(20_000, EPHEMERAL_FROM - 10_001)] : [20_000, 55_535];
  // Test files run several at once: each worker picks from a slice of its own.
  const slices = 8;
  const slice = Math.floor((highest - lowest) / slices);
  const from = lowest + ((Number(process.env.VITEST_POOL_ID ?? 1) - 1) % slices) * slice;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = from + Math.floor(Math.random() * slice);
    if (await isFree(port) && await isFree(port + 10_000)) return port;
  }
  throw new Error('no free port pair for redis-server');
}

async function startNode(port: number, dir: string, extra: string[]): Promise<RedisNode> {
  const child = spawn('redis-server', [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir,
    '--daemonize', 'no', '--loglevel', 'warning',
    // A replica's first sync starts at once instead of after the default 5 s gathering delay.
    '--repl-diskless-sync-delay', '0', ...extra,
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

/**
 * `persistent`: AOF with fsync on every write, so a restart (even after kill -9) keeps every write.
 * `replicaOf`: a replica of the server on that port, resolved once it is in sync (online).
 * `extra`: more redis-server arguments (`--rename-command CONFIG ""`, say).
 */
export async function startRedisStandalone(options: { persistent?: boolean; replicaOf?: number; extra?: readonly string[] } = {}): Promise<RedisStandalone> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-redis-'));
  const port = await freeRedisPort();
  const extra = [
    ...(options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : []),
    ...(options.replicaOf !== undefined ? ['--replicaof', '127.0.0.1', String(options.replicaOf)] : []),
    ...options.extra ?? [],
  ];
  let node = await startNode(port, dir, extra);
  if (options.replicaOf !== undefined) await waitForReplica(options.replicaOf, port);
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
 * A cluster of `size` masters, without replicas unless `replicas` (per master) says otherwise,
 * created with `redis-cli --cluster create`, with `cluster-require-full-coverage no` so that a lost
 * master affects only its own slots. Resolves once every replica is in sync.
 */
export async function startRedisCluster(size = 3, options: { persistent?: boolean; replicas?: number } = {}): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-redis-cluster-'));
  const perMaster = options.replicas ?? 0;
  const ports: number[] = [];
  while (ports.length < size * (1 + perMaster)) {
    const port = await freeRedisPort();
    if (!ports.includes(port)) ports.push(port);
  }
  const clusterArgs = (port: number) => [
    '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000',
    '--cluster-require-full-coverage', 'no', '--enable-debug-command', 'local',
    // Persistent: a restarted master comes back with what it had acknowledged (AOF, fsync always).
    ...(options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always', '--appendfilename', `appendonly-${port}.aof`, '--appenddirname', `aof-${port}`] : []),
  ];
  const started = new Map<number, RedisNode>();
  for (const port of ports) started.set(port, await startNode(port, dir, clusterArgs(port)));
  const created = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', String(perMaster), '--cluster-yes'], { encoding: 'utf8', timeout: 30_000 });
  if (created.status !== 0) throw new Error(`cluster create failed:\n${created.stdout}${created.stderr}`);
  await waitForClusterOk(ports);
  // redis-cli chose the roles; each node says its own.
  const masterPorts = ports.filter((p) => /\bmyself,master\b/.test(cli(p, ['CLUSTER', 'NODES'])));
  const masters = masterPorts.map((p) => started.get(p)!);
  const replicas = ports.filter((p) => !masterPorts.includes(p)).map((p) => started.get(p)!);
  await waitForInSync(masterPorts, perMaster);
  return {
    nodes: masterPorts.map((p) => `127.0.0.1:${p}`),
    masters,
    replicas,
    async restart(index: number) {
      const port = masterPorts[index]!;
      masters[index] = await startNode(port, dir, clusterArgs(port));
      await waitForClusterOk(ports);
      return masters[index]!;
    },
    async stop() {
      await Promise.all([...masters, ...replicas].map((m) => m.stop(true)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const onlineReplicas = (masterPort: number): number =>
  (cli(masterPort, ['INFO', 'replication']).match(/^slave\d+:.*state=online/gm) ?? []).length;

/**
 * Until the master's online replicas acknowledge a write of `key` (WAIT). "online" alone is not
 * enough: after a diskless sync the master holds the command stream back until the replica's
 * first acknowledgement, which may take up to a second.
 */
async function waitForAcks(masterPort: number, key: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const replicas = onlineReplicas(masterPort);
    // One connection for both, as WAIT counts the writes of its own connection.
    const out = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(masterPort)], { input: `INCR ${key}\nWAIT ${replicas} 200\n`, encoding: 'utf8', timeout: 10_000 }).stdout ?? '';
    if (replicas > 0 && Number(out.trim().split('\n').at(-1)) >= replicas) return;
    if (Date.now() > deadline) throw new Error(`replicas of ${masterPort} did not acknowledge writes`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Until the master on `masterPort` lists the replica on `replicaPort` as online and it acknowledges writes. */
async function waitForReplica(masterPort: number, replicaPort: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!new RegExp(`^slave\\d+:ip=[^,]+,port=${replicaPort},state=online`, 'm').test(cli(masterPort, ['INFO', 'replication']))) {
    if (Date.now() > deadline) throw new Error(`replica ${replicaPort} of ${masterPort} did not come online`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await waitForAcks(masterPort, 'kg-test:replica-sync');
}

/** Until each cluster master has `perMaster` replicas online that acknowledge its writes. */
async function waitForInSync(masterPorts: readonly number[], perMaster: number): Promise<void> {
  if (perMaster === 0) return;
  const deadline = Date.now() + 20_000;
  while (!masterPorts.every((p) => onlineReplicas(p) >= perMaster)) {
    if (Date.now() > deadline) throw new Error(`replicas of ${masterPorts.join(', ')} did not come online`);
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const port of masterPorts) await waitForAcks(port, keyServedBy(port));
}

/** A key of a slot the cluster master on `port` serves (the start of its last slot range). */
function keyServedBy(port: number): string {
  const myself = cli(port, ['CLUSTER', 'NODES']).split('\n').find((line) => line.includes('myself'))!;
  const slot = Number(/ (\d+)(-\d+)?\s*$/.exec(myself)![1]);
  for (let n = 0; ; n++) if (calculateSlot(`kg-test:replica-sync:${n}`) === slot) return `kg-test:replica-sync:${n}`;
}

async function waitForClusterOk(ports: readonly number[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (ports.every((p) => cli(p, ['CLUSTER', 'INFO']).includes('cluster_state:ok'))) return;
    if (Date.now() > deadline) throw new Error(`cluster did not reach state ok on ${ports.join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
