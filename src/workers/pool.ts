/**
 * The piscina pool for CPU-bound work: verifying secrets of keys migrated with slow hashes
 * (bcrypt, scrypt, argon2id), which costs tens of milliseconds each and must not stall the event
 * loop that answers every other verification. A round trip to a worker costs far more than a
 * SHA-256, so nothing cheap belongs here.
 *
 * One pool per Services (src/wiring/), sized by HASH_WORKERS and closed by closeServices; its threads
 * start at its first task (most deployments never import slow-hash keys and never start a thread;
 * piscina itself is loaded only then). The only module that imports piscina.
 */
import { existsSync } from 'node:fs';
import type { Piscina } from 'piscina';
import { ServiceUnavailableError } from '../errors/api-error.js';
import { workerEntry } from './entry.js';
import type { VerifySecretTask } from './tasks.js';

/** Tasks that may wait per thread; beyond that a slow verification is answered 503 at once. */
export const QUEUE_PER_THREAD = 64;

/** The pool's worker entry, compiled (workers/entry.ts). */
export function tasksFile(): string {
  return workerEntry('workers/tasks.js');
}

export interface HashPoolStats {
  /** Worker threads configured (HASH_WORKERS); 0 until the first task started the pool. */
  readonly threads: number;
  readonly completed: number;
  /** Tasks running or waiting right now. */
  readonly inFlight: number;
}

export class HashPool {
  private pool: Promise<Piscina> | null = null;
  private inFlight = 0;
  private completed = 0;
  private closed = false;

  constructor(readonly threads: number, readonly maxWaiting: number = threads * QUEUE_PER_THREAD) {}

  /** Whether the secret matches the slow hash, computed on a worker thread. */
  async verifySecret(task: VerifySecretTask): Promise<boolean> {
    if (this.closed) throw new ServiceUnavailableError('hash pool closed');
    // Shed load rather than queue without bound: each waiting task is a request waiting too.
    if (this.inFlight >= this.threads + this.maxWaiting) throw new ServiceUnavailableError('hash pool queue full');
    this.inFlight += 1;
    try {
      // A failed start (no dist/ build) is not remembered: the next task tries again.
      const pool = await (this.pool ??= this.start().catch((err: unknown) => { this.pool = null; throw err; }));
      const valid: boolean = await pool.run(task, { name: 'verifySecret' });
      this.completed += 1;
      return valid;
    } finally {
      this.inFlight -= 1;
    }
  }

  stats(): HashPoolStats {
    return { threads: this.pool ? this.threads : 0, completed: this.completed, inFlight: this.inFlight };
  }

  /** Lets running and queued tasks finish, then stops the threads. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    if (pool) await (await pool).close();
  }

  private async start(): Promise<Piscina> {
    const filename = tasksFile();
    if (!existsSync(filename)) throw new Error(`worker entry ${filename} is missing: run 'npm run build'`);
    const { Piscina } = await import('piscina');
    // A fixed number of threads, started together and kept: thread start-up would otherwise
    // land on the requests that arrive after an idle spell. One task per thread at a
    // time, since every task is synchronous CPU work.
    return new Piscina({ filename, minThreads: this.threads, maxThreads: this.threads, concurrentTasksPerWorker: 1 });
  }
}
