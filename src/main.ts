/**
 * Entry point of `npm start` and `keygate serve`: settings → server → signals. The only place
 * that exits the process.
 */
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig } from './config.js';
import { startKeygate } from './keygate.js';
import { NativeHttpUnavailableError } from './server/uws.js';

/**
 * V8 allocates an object literal's later copies straight in the old generation once most of those
 * it saw outlived a young-generation collection. A stall (cold keys waiting on storage at start-up)
 * can make it decide so for per-request objects, and it keeps to that: their garbage then
 * waits for full collections, and every young object they point to survives each young collection
 * (copied, then promoted), which makes each of them several times as long. Set before any code is hot.
 */
const GC_FLAGS = '--no-allocation-site-pretenuring';

export async function serve(): Promise<void> {
  setFlagsFromString(GC_FLAGS);
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`keygate: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  try {
    const keygate = await startKeygate(config);
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      keygate.services.log.info({ signal }, 'shutting down');
      keygate.close().then(() => keygate.services.log.flush(() => process.exit(0)), (err: unknown) => {
        keygate.services.log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  } catch (err) {
    const message = err instanceof NativeHttpUnavailableError || err instanceof Error ? err.message : String(err);
    process.stderr.write(`keygate: ${message}\n`);
    process.exit(1);
  }
}

const isEntry = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) void serve();
