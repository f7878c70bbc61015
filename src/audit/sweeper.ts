/**
 * Retention: events older than AUDIT_RETENTION_DAYS are removed soon after start-up and then every
 * hour. Every replica sweeps; a sweep that meets another's removes nothing twice (prune is by id).
 */
import type { Logger } from '../obs/log.js';
import type { AuditStore } from './event.js';

const DAY_MS = 86_400_000;
export const SWEEP_EVERY_MS = 3_600_000;
/** The first sweep waits a little, so start-up and the first requests are not slowed by it. */
const FIRST_SWEEP_MS = 10_000;

export interface AuditSweeper {
  /** One sweep now; resolves how many events it removed. */
  sweep(): Promise<number>;
  stop(): void;
}

export function startAuditSweeper(audit: AuditStore, retentionDays: number, now: () => number, log: Logger): AuditSweeper {
  const sweep = (): Promise<number> => audit.prune(now() - retentionDays * DAY_MS);
  const run = (): void => {
    sweep().then(
      (removed) => { if (removed > 0) log.info({ removed, retentionDays }, 'audit events past their retention removed'); },
      (err: unknown) => log.warn({ err }, 'audit retention sweep failed (tried again within the hour)'));
  };
  const first = setTimeout(run, FIRST_SWEEP_MS);
  const every = setInterval(run, SWEEP_EVERY_MS);
  first.unref();
  every.unref();
  return { sweep, stop: () => { clearTimeout(first); clearInterval(every); } };
}
