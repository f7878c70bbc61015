/**
 * One circuit breaker per Redis master, shared by every client of this thread. After a command to a
 * master fails because the master did not answer (timed out, connection lost), commands for that
 * master fail at once with CircuitOpenError (a 503) instead of each waiting out the command
 * timeout, until a PING to it answers again. Commands for other masters' slots go on as before.
 */
import { Command, type Cluster, type Redis } from 'ioredis';

export class CircuitOpenError extends Error {
  constructor(readonly node: string) {
    super(`Redis ${node} did not answer; its requests fail at once until it answers a probe`);
    this.name = 'CircuitOpenError';
  }
}

/** Failures meaning the master did not answer (not a script error, a redirect or a wrong type). */
const UNANSWERED = /Command timed out|Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Too many Cluster redirections/;

/** Pause between probes of a master that still does not answer (each probe waits up to the command timeout). */
const PROBE_PAUSE_MS = 100;

export interface CircuitState {
  open: boolean;
  /** Times it opened, and commands failed at once while it was open. */
  opened: number;
  rejected: number;
}

interface Circuit extends CircuitState {
  probing: boolean;
}

/** Keyed by the master's `host:port`: the clients of one process (storage, limiter, key writes) share it. */
const circuits = new Map<string, Circuit>();
let openCount = 0;

/** Every master a command was sent to that failed at least once, for /metrics. */
export function circuitStates(): ReadonlyMap<string, Readonly<CircuitState>> {
  return circuits;
}

type Probe = () => Promise<unknown>;

/** Opens the master's circuit and probes it until a PING answers (or the client was closed). */
function trip(node: string, probe: Probe): void {
  let circuit = circuits.get(node);
  if (!circuit) circuits.set(node, circuit = { open: false, probing: false, opened: 0, rejected: 0 });
  if (!circuit.open) {
    circuit.open = true;
    circuit.opened++;
    openCount++;
  }
  if (circuit.probing) return;
  circuit.probing = true;
  const open = circuit;
  const attempt = (): void => {
    if (!open.open) {
      open.probing = false;
      return;
    }
    probe().then(() => {
      close(node);
      open.probing = false;
    }, () => { setTimeout(attempt, PROBE_PAUSE_MS).unref(); });
  };
  attempt();
}

/** The master answered (a probe, or a new connection's handshake): its commands go through again. */
function close(node: string): void {
  const circuit = circuits.get(node);
  if (!circuit?.open) return;
  circuit.open = false;
  openCount--;
}

const nodeKey = (redis: Redis): string => `${redis.options.host}:${redis.options.port}`;

/** Fails the command at once when its master's circuit is open; true when it did. */
function refused(node: string, command: Command): boolean {
  const circuit = circuits.get(node);
  if (!circuit?.open) return false;
  circuit.rejected++;
  command.reject(new CircuitOpenError(node));
  return true;
}

function watch(command: Command, node: string, probe: Probe): void {
  command.promise.catch((err: unknown) => {
    if (err instanceof Error && UNANSWERED.test(err.message)) trip(node, probe);
  });
}

type Send = (command: Command, stream?: unknown, target?: { slot?: number | null }) => unknown;

/** One Redis: every command goes to its one master. */
export function guardStandalone(client: Redis): void {
  const node = nodeKey(client);
  const send = client.sendCommand.bind(client) as Send;
  client.on('ready', () => close(node));
  // The probe bypasses the breaker; a closed client needs no probing.
  const probe: Probe = () => {
    if (client.status === 'end') return Promise.resolve();
    const ping = new Command('ping');
    send(ping);
    return ping.promise;
  };
  (client as unknown as { sendCommand: Send }).sendCommand = (command, stream) => {
    // Until ready, ioredis itself sends the connection's set-up commands (and refuses the others).
    if (client.status === 'ready' && refused(node, command)) return command.promise;
    const result = send(command, stream);
    watch(command, node, probe);
    return result;
  };
}

/**
 * A cluster: a command's master is the one ioredis routes its slot to. Commands without keys go to
 * any node and pass unguarded.
 */
export function guardCluster(cluster: Cluster): void {
  const send = cluster.sendCommand.bind(cluster) as Send;
  cluster.on('+node', (redis: Redis) => redis.on('ready', () => close(nodeKey(redis))));
  const probeOf = (node: string): Probe => () => {
    if (cluster.status === 'end') return Promise.resolve();
    const master = cluster.nodes('master').find((redis) => nodeKey(redis) === node);
    // No longer a master of this cluster: its slots are served elsewhere.
    return master ? master.ping() : Promise.resolve();
  };
  // A command without keys (PUBLISH, say) goes to any node: while a circuit is open, to a slot of
  // a master that answers (the cache's invalidation heartbeats must not wait on a frozen master).
  const sendKeyless: Send = (command, stream, target) => {
    if (openCount === 0 || target || cluster.status !== 'ready') return send(command, stream, target);
    const slot = answeringSlot(cluster);
    return send(command, stream, slot === undefined ? target : { slot });
  };
  (cluster as unknown as { sendCommand: Send }).sendCommand = (command, stream, target) => {
    const slot = target ? target.slot : command.getSlot();
    if (slot === null || slot === undefined) return sendKeyless(command, stream, target);
    const node = cluster.slots[slot]?.[0];
    if (node === undefined) return send(command, stream, target);
    if (cluster.status === 'ready' && refused(node, command)) return command.promise;
    const result = send(command, stream, target);
    watch(command, node, probeOf(node));
    return result;
  };
}

/** A random slot whose master's circuit is closed, if a few tries find one. */
function answeringSlot(cluster: Cluster): number | undefined {
  for (let attempt = 0; attempt < 16; attempt++) {
    const slot = Math.floor(Math.random() * 16_384);
    const node = cluster.slots[slot]?.[0];
    if (node !== undefined && !circuits.get(node)?.open) return slot;
  }
  return undefined;
}
