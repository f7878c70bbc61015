/**
 * Structured JSON logs (pino). Request bodies and headers are never logged, so no key or root key
 * can reach a log line; `redact` is a second net for fields that might carry one.
 */
import { pino, type Logger } from 'pino';
import type { LogLevel } from '../config.js';

export type { Logger };

export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: 'keygate' },
      redact: { paths: ['key', 'rootKey', 'authorization', '*.key', '*.authorization', '*.plaintext'], censor: '[redacted]' },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
