/**
 * analytics.getVerifications off the event loop: queries run one at a time on a thread of their
 * own (query-worker.ts), started at the first query. A query that outlives its time limit (one
 * page of a heavy plan can) has its thread stopped and answers the timeout; the next query starts
 * a new thread. At most MAX_WAITING queries wait behind the running one; more are refused at once
 * (429), so a burst of queries holds neither memory nor the verifications' CPU.
 */
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import type { Logger } from '../obs/log.js';
import { workerEntry } from '../workers/entry.js';
import type { QueryScope } from './query.js';
import type { QueryAnswer, QueryMessage, QueryWorkerData } from './query-worker.js';
import { QueryError } from './sql/errors.js';

/** Queries waiting behind the running one. */
export const MAX_WAITING = 4;
/** Past its own time limit a query gets this long to stop by itself before its thread is ended. */
const STOP_GRACE_MS = 1_000;

/** Answered 429 query_quota_exceeded: too many queries are already running or waiting. */
export class QueriesBusyError extends Error {
  constructor() {
    super(`Analytics queries run one at a time and ${MAX_WAITING} are already waiting: try again shortly.`);
  }
}

interface Pending {
  readonly message: QueryMessage;
  resolve(rows: Record<string, unknown>[]): void;
  reject(err: unknown): void;
}

export class AnalyticsQueries {
  private worker: Worker | null = null;
  private running: (Pending & { timer: NodeJS.Timeout }) | null = null;
  private readonly waiting: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly config: Config, private readonly log: Logger) {}

  run(sql: string, scope: QueryScope, now: number): Promise<Record<string, unknown>[]> {
    if (this.closed) return Promise.reject(new Error('the analytics query thread is closed'));
    if (this.running && this.waiting.length >= MAX_WAITING) return Promise.reject(new QueriesBusyError());
    return new Promise((resolve, reject) => {
      this.waiting.push({ message: { id: this.nextId++, sql, scope, now }, resolve, reject });
      this.startNext();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.waiting.splice(0)) pending.reject(new Error('keygate is shutting down'));
    await this.stopWorker(new Error('keygate is shutting down'));
  }

  private startNext(): void {
    if (this.running || this.waiting.length === 0) return;
    const pending = this.waiting.shift()!;
    const timer = setTimeout(() => {
      void this.stopWorker(new QueryError('timeout', `The query ran longer than ${this.config.analyticsQueryTimeoutMs} ms (ANALYTICS_QUERY_TIMEOUT_MS): narrow the time range or use a coarser rollup table.`));
    }, this.config.analyticsQueryTimeoutMs + STOP_GRACE_MS);
    this.running = { ...pending, timer };
    this.thread().postMessage(pending.message);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerEntry('analytics/query-worker.js'), { workerData: { config: this.config } satisfies QueryWorkerData, name: 'keygate analytics queries' });
    worker.on('message', (answer: QueryAnswer) => this.answered(answer));
    worker.on('error', (err) => this.log.error({ err }, 'the analytics query thread failed'));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.finish((p) => p.reject(new Error('the analytics query thread stopped')));
    });
    this.worker = worker;
    return worker;
  }

  private answered(answer: QueryAnswer): void {
    if (!this.running || this.running.message.id !== answer.id) return;
    this.finish((p) => {
      if ('rows' in answer) p.resolve(answer.rows);
      else if ('refused' in answer) p.reject(new QueryError(answer.refused.kind, answer.refused.detail));
      else p.reject(new Error(answer.fault));
    });
  }

  private finish(settle: (pending: Pending) => void): void {
    const running = this.running;
    if (!running) return;
    clearTimeout(running.timer);
    this.running = null;
    settle(running);
    if (!this.closed) this.startNext();
  }

  private async stopWorker(reason: unknown): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.finish((p) => p.reject(reason));
    await worker?.terminate();
  }
}
