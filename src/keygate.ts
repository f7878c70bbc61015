/**
 * startKeygate: builds the services, registers ROOT_KEY, and listens. Used by main.ts and by the
 * tests, which start real servers on port 0.
 */
import { syncEnvRootKey } from './auth/bootstrap.js';
import type { Config } from './config.js';
import { createLogger, type Logger } from './obs/log.js';
import { routes } from './routes/index.js';
import { createServer } from './server/app.js';
import { loadNativeUws } from './server/uws.js';
import { buildServices, closeServices } from './wiring/build.js';
import type { Services } from './wiring/services.js';
import { ServiceUnavailableError } from './errors/api-error.js';
import type { Storage } from './storage/types.js';
import { startAuditSweeper, type AuditSweeper } from './audit/sweeper.js';

export interface Keygate {
  readonly url: string;
  readonly port: number;
  readonly services: Services;
  /** Removes audit events past AUDIT_RETENTION_DAYS (src/audit/sweeper.ts). */
  readonly auditSweeper: AuditSweeper;
  /** Graceful stop: no new connections, in-flight requests finish, storage is flushed. */
  close(): Promise<void>;
}

export async function startKeygate(config: Config, log: Logger = createLogger(config.logLevel, undefined, config.logFormat)): Promise<Keygate> {
  // Load the HTTP engine first: without it nothing else is worth opening.
  const uws = loadNativeUws();
  const services = await buildServices(config, log);
  let retryTimer: NodeJS.Timeout | undefined;
  try {
    // The store may not answer yet (Redis still starting): serve anyway (requests that need it get
    // 503) and register ROOT_KEY as soon as it does.
    const bootstrap = async (): Promise<void> => {
      try {
        await registerRootKey(services.storage.rootKeys, config.rootKey, log);
      } catch (err) {
        if (!(err instanceof ServiceUnavailableError)) throw err;
        retryTimer = setTimeout(() => void bootstrap().catch((e: unknown) => log.error({ err: e }, 'ROOT_KEY registration failed')), 1_000);
      }
    };
    await bootstrap();
    const server = await createServer(services, routes, uws).listen();
    const auditSweeper = startAuditSweeper(services.storage.audit, config.auditRetentionDays, services.now, log);
    log.info({ url: server.url, dataDir: config.dataDir }, 'keygate is listening');
    return {
      url: server.url,
      port: server.port,
      services,
      auditSweeper,
      async close() {
        clearTimeout(retryTimer);
        auditSweeper.stop();
        await server.close(config.shutdownGraceMs);
        await closeServices(services);
      },
    };
  } catch (err) {
    clearTimeout(retryTimer);
    await closeServices(services);
    throw err;
  }
}

async function registerRootKey(rootKeys: Storage['rootKeys'], rootKey: string | undefined, log: Logger): Promise<void> {
  const outcome = await syncEnvRootKey(rootKeys, rootKey);
  if (outcome === 'registered') log.info('ROOT_KEY registered as root key rk_env with every permission');
  if (outcome === 'removed') log.info('ROOT_KEY is not set: the root key rk_env it had registered was removed');
  if ((await rootKeys.list()).every((k) => k.revokedAt !== undefined)) {
    log.warn('no root key exists yet: set ROOT_KEY or run `npx keygate root-key create --all-permissions`');
  }
}
