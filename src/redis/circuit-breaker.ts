/**
 * One circuit breaker per Redis master, shared by every client of this thread. Once a master stops
 * answering (a command timed out and no command sent since has been answered by that master, or
 * its connection was lost), commands for that master fail at once with CircuitOpenError (a 503)
 * instead of each waiting out the command timeout, until it answers again: a PING probe, any other
 * reply, or a new connection's handshake. Commands for other masters' slots go on as before.
 * A master that is merely slow for one command (it answered later ones) is not cut off.
 */
import { Command, type Cluster, type Redis } from 'ioredis';

export class CircuitOpenError extends Error {
  constructor(readonly node: string) {
    super(`Redis ${node} did not answer; its requests fail at once until it answers a probe`);
    this.name = 'CircuitOpenError';
  }
}

const TIMED_OUT = 'Command timed out';
/** Failures meaning the connection to the master is gone (not a script error, a redirect or a wrong type). */
const CONNECTION_LOST = /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Too many Cluster redirections/;

/** Pause between probes of a master that still does not answer (each probe waits up to the command timeout). */
const PROBE_PAUSE_MS = 100;

export interface CircuitState {
  open: boolean;
  /** Times it opened, and commands failed at once while it was open. */
  opened: number;
  rejected: number;
}

interface Circuit extends CircuitState {
  /** The master's `host:port`. */
  readonly node: string;
  probing: boolean;
  /** Commands sent to the master, numbered in order. */
  sent: number;
  /**
   * The number of the latest command the master answered. A reply proves the master worked after
   * its command was sent; replies already on their way when the master froze prove nothing about
   * commands sent later.
   */
  answeredSent: number;
  /** Timeouts whose verdict waits for the end of this event-loop turn. */
  undecided: number;
  /** Commands sent while a verdict waits: failed at once if the master is found to have stopped. */
  held: Command[];
}

/** Keyed by the master's `host:port`: the clients of one process (storage, limiter, key writes) share it. */
const circuits = new Map<string, Circuit>();
let openCount = 0;

/** Every master commands were sent to, for /metrics. */
export function circuitStates(): ReadonlyMap<string, Readonly<CircuitState>> {
  return circuits;
}

function circuitOf(node: string): Circuit {
  let circuit = circuits.get(node);
  if (!circuit) circuits.set(node, circuit = { node, open: false, probing: false, opened: 0, rejected: 0, sent: 0, answeredSent: 0, undecided: 0, held: [] });
  return circuit;
}

type Probe = () => Promise<unknown>;

/** Opens the circuit and probes the master until a PING answers (or the client was closed). */
function trip(circuit: Circuit, probe: Probe): void {
  if (!circuit.open) {
    circuit.open = true;
    circuit.opened++;
    openCount++;
  }
  if (circuit.probing) return;
  circuit.probing = true;
  const attempt = (): void => {
    if (!circuit.open) {
      circuit.probing = false;
      return;
    }
    probe().then(() => {
      close(circuit);
      circuit.probing = false;
    }, () => { setTimeout(attempt, PROBE_PAUSE_MS).unref(); });
  };
  attempt();
}

/** The master answered: its commands go through again. */
function close(circuit: Circuit): void {
  if (!circuit.open) return;
  circuit.open = false;
  openCount--;
}

const nodeKey = (redis: Redis): string => `${redis.options.host}:${redis.options.port}`;

/** Fails the command at once when its master's circuit is open; true when it did. */
function refused(circuit: Circuit, command: Command): boolean {
  if (!circuit.open) return false;
  circuit.rejected++;
  command.reject(new CircuitOpenError(circuit.node));
  return true;
}

/**
 * Follows a command's outcome through its own resolve and reject (no promise of its own per
 * command). Wrapped before ioredis sends it: a Cluster then reports only the final outcome, after
 * its own redirects and retries.
 */
function watch(command: Command, circuit: Circuit, probe: Probe): void {
  const number = ++circuit.sent;
  if (circuit.undecided > 0) circuit.held.push(command);
  const { resolve, reject } = command;
  // ioredis hands a reply to `resolve` even after the command timed out: a late reply counts too.
  command.resolve = (value: unknown) => {
    answered(circuit, number);
    resolve(value);
  };
  command.reject = (err: Error) => {
    failed(circuit, number, err, probe);
    reject(err);
  };
}

function failed(circuit: Circuit, number: number, err: Error, probe: Probe): void {
  if (err.message === TIMED_OUT) {
    // Decided after this turn's socket reads: replies to it or to later commands may be waiting
    // there when the timer fired late (this thread was busy), and then the master did answer.
    circuit.undecided++;
    setImmediate(() => decide(circuit, number, probe));
  } else if (CONNECTION_LOST.test(err.message)) {
    trip(circuit, probe);
  } else if (err.name === 'ReplyError') {
    answered(circuit, number);
  }
}

/** A timed-out command's verdict; the commands sent meanwhile share it. */
function decide(circuit: Circuit, number: number, probe: Probe): void {
  circuit.undecided--;
  if (circuit.answeredSent < number) {
    trip(circuit, probe);
    for (const command of circuit.held) {
      if (command.isResolved) continue;
      circuit.rejected++;
      command.reject(new CircuitOpenError(circuit.node));
    }
    circuit.held.length = 0;
  }
  if (circuit.undecided === 0) circuit.held.length = 0;
}

function answered(circuit: Circuit, number: number): void {
  if (number > circuit.answeredSent) circuit.answeredSent = number;
  if (circuit.open) close(circuit);
}

type Send = (command: Command, stream?: unknown, target?: { slot?: number | null }) => unknown;

/** One Redis: every command goes to its one master. */
export function guardStandalone(client: Redis): void {
  const node = nodeKey(client);
  const circuit = circuitOf(node);
  const send = client.sendCommand.bind(client) as Send;
  client.on('ready', () => close(circuit));
  // The probe bypasses the breaker; a closed client needs no probing.
  const probe: Probe = () => {
    if (client.status === 'end') return Promise.resolve();
    const ping = new Command('ping');
    send(ping);
    return ping.promise;
  };
  (client as unknown as { sendCommand: Send }).sendCommand = (command, stream) => {
    // Until ready, ioredis itself sends the connection's set-up commands (and refuses the others).
    if (client.status === 'ready' && refused(circuit, command)) return command.promise;
    watch(command, circuit, probe);
    return send(command, stream);
  };
}

/**
 * A cluster: a command's master is the one ioredis routes its slot to. Commands without keys go to
 * any node (one whose circuit is closed, while one is open) and are not watched.
 */
export function guardCluster(cluster: Cluster): void {
  const send = cluster.sendCommand.bind(cluster) as Send;
  cluster.on('+node', (redis: Redis) => redis.on('ready', () => close(circuitOf(nodeKey(redis)))));
  const probes = new Map<string, Probe>();
  const probeOf = (node: string): Probe => {
    let probe = probes.get(node);
    if (!probe) {
      probes.set(node, probe = () => {
        if (cluster.status === 'end') return Promise.resolve();
        const master = cluster.nodes('master').find((redis) => nodeKey(redis) === node);
        // No longer a master of this cluster: its slots are served elsewhere.
        return master ? master.ping() : Promise.resolve();
      });
    }
    return probe;
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
    const circuit = circuitOf(node);
    if (cluster.status === 'ready' && refused(circuit, command)) return command.promise;
    watch(command, circuit, probeOf(node));
    return send(command, stream, target);
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
