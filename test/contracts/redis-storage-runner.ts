/**
 * Runs every storage contract suite (storage, rbac, delete vs attach and insert, overrides, migrations, verifications, sessions,
 * audit log) against
 * openRedisStorage on a real Redis: the standalone server or the 3-master cluster of the global
 * setup. Each test gets its own client and a fresh random key prefix, so "fresh, empty storage"
 * holds on the shared server; the client is closed after the test (the storage does not own it).
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createRedis, waitUntilReady, type RedisClient, type RedisSettings } from '../../src/redis/client.js';
import { openRedisStorage } from '../../src/storage/redis/open.js';
import type { Storage } from '../../src/storage/types.js';
import { describeMigrationStorage } from './migration-storage.contract.js';
import { describeOverrideStorage } from './override-storage.contract.js';
import { describeDeleteAttachRace } from './delete-attach-race.contract.js';
import { describeDeleteInsertRace } from './delete-insert-race.contract.js';
import { describeRbacStorage } from './rbac-storage.contract.js';
import { describeStorage } from './storage.contract.js';
import { describeVerificationStorage } from './verification-storage.contract.js';
import { describeSessionStorage } from './session-storage.contract.js';
import { describeAuditStorage } from './audit-storage.contract.js';

export type Topology = 'standalone' | 'cluster';

export function redisSettings(topology: Topology): RedisSettings {
  if (topology === 'standalone') return { url: inject('redisUrl'), commandTimeoutMs: 5_000, keyPrefix: '' };
  const clusterNodes = inject('redisClusterNodes').split(',').map((node) => {
    const [host, port] = node.split(':');
    return { host: host!, port: Number(port) };
  });
  return { clusterNodes, commandTimeoutMs: 5_000, keyPrefix: '' };
}

export async function connect(topology: Topology): Promise<RedisClient> {
  const client = createRedis(redisSettings(topology), 'storage-contract');
  await waitUntilReady(client, `redis ${topology}`, 10_000);
  return client;
}

export const freshPrefix = (): string => `kgtest:${randomBytes(6).toString('hex')}:`;

export function runRedisStorageContracts(topology: Topology): void {
  const clients = new Map<Storage, { client: RedisClient; prefix: string }>();
  /** The prefix of the storage last opened, for `reopen`. */
  let lastPrefix = '';

  async function open(prefix = freshPrefix(), verificationsRetained?: number): Promise<Storage> {
    const client = await connect(topology);
    const storage = openRedisStorage(client, { keyPrefix: prefix, ...(verificationsRetained === undefined ? {} : { verificationsRetained }) });
    clients.set(storage, { client, prefix });
    lastPrefix = prefix;
    return storage;
  }

  async function close(storage: Storage): Promise<void> {
    const entry = clients.get(storage);
    clients.delete(storage);
    await storage.close();
    await entry?.client.quit();
  }

  const name = `redis ${topology}`;
  describeStorage(name, () => open(), close, { reopen: () => open(lastPrefix) });
  describeRbacStorage(name, () => open(), close);
  describeDeleteAttachRace(name, () => open(), close);
  describeDeleteInsertRace(name, () => open(), close);
  describeOverrideStorage(name, () => open(), close);
  describeMigrationStorage(name, () => open(), close);
  describeVerificationStorage(name, (retained) => open(freshPrefix(), retained), close);
  describeSessionStorage(name, () => open(), close, () => open(lastPrefix));
  describeAuditStorage(name, () => open(), close);
}
