/**
 * Structured JSON logs (pino). Request bodies and headers are never logged, so no key or root key
 * can reach a log line; `redact` is a second net for fields that might carry one.
 */
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from '../config.js';
import { LogSink } from './log-sink.js';
import { ByteWriter, utf8 } from '../util/json-bytes.js';

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

/** Writes the one line each answered request gets (server/app.ts); `durationMs` rounded to the microsecond. */
export type RequestLogLine = (requestId: string, procedure: string, status: number, durationMs: number) => void;

/**
 * The per-request line at info, in pino's own JSON shape, written as bytes (no string per
 * request) and handed straight to the sink (which gathers such lines and writes them together).
 * pino's object path would serialize an object and apply redaction for every request; every field
 * here is keygate's own (an id it minted, a procedure name from its route table, a status, a
 * number), so there is nothing to redact, and all of it is ASCII. null below info.
 */
export function requestLogLine(log: Logger): RequestLogLine | null {
  if (!log.isLevelEnabled('info')) return null;
  const sink = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (!(sink instanceof LogSink)) return null;
  const head = utf8('{"level":30,"time":');
  const idHead = utf8(',"service":"keygate","requestId":"');
  const duration = utf8(',"durationMs":');
  const tail = utf8(',"msg":"request"}\n');
  // Per procedure, the bytes between the request id and the status, encoded once.
  const middles = new Map<string, Uint8Array>();
  const line = new ByteWriter();
  return (requestId, procedure, status, durationMs) => {
    let middle = middles.get(procedure);
    if (middle === undefined) middles.set(procedure, middle = utf8(`","procedure":${JSON.stringify(procedure)},"status":`));
    line.reset().bytes(head);
    line.number(Date.now());
    line.bytes(idHead);
    line.ascii(requestId);
    line.bytes(middle);
    line.number(status);
    line.bytes(duration);
    line.milliseconds(durationMs);
    line.bytes(tail);
    sink.bytesLine(line.written());
  };
}
