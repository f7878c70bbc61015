/** The in-process memory of keys and root keys, kept current by the backend's change feed. */
import { RootKeyAuthenticator } from '../auth/root-key.js';
import type { ChangeFeed } from '../cache/change-feed.js';
import type { Config } from '../config.js';
import { VerificationHotSet } from '../keys/hot-set.js';
import type { Storage } from '../storage/types.js';
import type { Services } from './services.js';

export function rememberedInProcess(config: Config, storage: Storage, feed: ChangeFeed, ttlMs?: number): Pick<Services, 'hotKeys' | 'rootKeyAuth'> {
  return {
    hotKeys: new VerificationHotSet(storage, feed, { maxEntries: config.cacheMaxEntries, ...(ttlMs === undefined ? {} : { ttlMs }) }),
    rootKeyAuth: new RootKeyAuthenticator(storage.rootKeys, feed, ttlMs === undefined ? {} : { ttlMs }),
  };
}
