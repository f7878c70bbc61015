/**
 * buildServices and closeServices: the mode's services (embedded.ts, or redis.ts when Redis is
 * configured), with metrics wrapped around them unless METRICS=off.
 */
import type { Config } from '../config.js';
import { countingLimiter, instrumentRedis } from '../obs/instrument.js';
import type { Logger } from '../obs/log.js';
import { Metrics } from '../obs/metrics.js';
import { buildEmbeddedServices } from './embedded.js';
import type { Services } from './services.js';

export async function buildServices(config: Config, log: Logger): Promise<Services> {
  const services = await buildModeServices(config, log);
  if (!config.metrics) return services;
  const metrics = new Metrics();
  const cache = services.cache;
  if (cache) metrics.cache('records', () => ({ hits: cache.hits, misses: cache.misses, evictions: cache.evictions }));
  const { hotKeys } = services;
  metrics.cache('verification', () => ({ hits: hotKeys.hits, misses: hotKeys.misses, evictions: hotKeys.evictions }));
  metrics.recorder(() => services.recorder.stats());
  for (const client of services.redisClients ?? []) instrumentRedis(client, metrics);
  if (services.redisCircuits) metrics.circuits(services.redisCircuits);
  return { ...services, metrics, limiter: countingLimiter(services.limiter, metrics) };
}

async function buildModeServices(config: Config, log: Logger): Promise<Services> {
  if (!config.redis) return buildEmbeddedServices(config, log);
  // Loaded only in distributed mode: the embedded default never opens ioredis.
  const { buildRedisServices } = await import('./redis.js');
  return buildRedisServices(config, config.redis, log);
}

export async function closeServices(services: Services): Promise<void> {
  // First: a slow-hash verification still running finishes and may yet write its rehash.
  await services.hashPool.close();
  await services.limiter.close();
  await services.analytics.close();
  // Before the store closes: buffered verification records are written, not lost.
  await services.recorder.close();
  await services.storage.close();
  await services.release?.();
}
