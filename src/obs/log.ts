/**
 * Structured JSON logs (pino). Request bodies and headers are never logged, so no key or root key
 * can reach a log line; `redact` is a second net for fields that might carry one.
 */
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from '../config.js';
import { LogSink } from './log-sink.js';

export type { Logger };

/**
 * JSON lines to stdout, or pretty lines for a person at a terminal (LOG_FORMAT), through a
 * LogSink (log-sink.ts) that gathers the per-request lines and writes bytes. Tests pass their own
 * stream.
 */
export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream, format: LogFormat = 'json'): Logger {
  const sink = destination !== undefined ? new LogSink(destination)
    : format === 'pretty' ? new LogSink(pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' }))
      : LogSink.stdout();
  return pino(
    {
      level,
      base: { service: 'keygate' },
      redact: { paths: ['key', 'rootKey', 'authorization', '*.key', '*.authorization', '*.plaintext'], censor: '[redacted]' },
    },
    sink as unknown as NodeJS.WritableStream,
  );
}

/**
 * Logs the one line each answered request gets (server/app.ts): `durationMs` is written rounded to
 * the microsecond, and the line's time is when it was answered (`answeredAt`, performance.now()).
 */
export type RequestLogLine = (requestId: string, procedure: string, status: number, durationMs: number, answeredAt?: number) => void;

/**
 * The per-request line at info, in pino's own JSON shape, held as values and written as bytes
 * with the sink's next send (request-lines.ts). pino's object path would serialize an object and
 * apply redaction for every request; every field here is keygate's own, with nothing to redact.
 * null below info.
 */
export function requestLogLine(log: Logger): RequestLogLine | null {
  if (!log.isLevelEnabled('info')) return null;
  const sink = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (!(sink instanceof LogSink)) return null;
  const lines = sink.heldLines();
  return (requestId, procedure, status, durationMs, answeredAt = performance.now()) => lines.add(requestId, procedure, status, durationMs, answeredAt);
}
