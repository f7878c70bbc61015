/**
 * The audit log's crash ordering in Redis (src/storage/redis/audit.ts): an event's index entry is
 * written before the script that stores the event with its change. The state a crash between the
 * two leaves (an entry, no event, no change) is built by hand here: readers skip the entry, the
 * event is in the same slot as its record, and pruning removes the entry. Standalone and Cluster.
 */
import calculateSlot from 'cluster-key-slot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditEvent } from '../../src/audit/context.js';
import type { RedisClient } from '../../src/redis/client.js';
import { RedisAuditLog } from '../../src/storage/redis/audit.js';
import { storageKeys, type StorageKeys } from '../../src/storage/redis/keys.js';
import { openRedisStorage } from '../../src/storage/redis/open.js';
import { WORKSPACE_ID } from '../../src/storage/records.js';
import type { Storage } from '../../src/storage/types.js';
import { connect, freshPrefix, type Topology } from './redis-storage-runner.js';

const event = (timeMs: number, apiId: string) => auditEvent(
  { actor: { type: 'cli' }, workspaceId: WORKSPACE_ID, procedure: 'apis.createApi' }, { targets: [{ type: 'api', id: apiId }], summary: 'created' }, timeMs);

describe.each(['standalone', 'cluster'] as Topology[])('Redis audit log, crash between index entry and change: %s', (topology) => {
  let client: RedisClient;
  let storage: Storage;
  let audit: RedisAuditLog;
  let k: StorageKeys;
  let prefix: string;
  beforeEach(async () => {
    client = await connect(topology);
    prefix = freshPrefix();
    storage = openRedisStorage(client, { keyPrefix: prefix });
    audit = new RedisAuditLog(client, prefix);
    k = storageKeys(prefix);
  });
  afterEach(async () => {
    await storage.close();
    await client.quit();
  });

  it('an index entry whose change never ran is invisible, and prune removes it', async () => {
    // The crash: the entry is written, the script with the change and its event never runs.
    await audit.prepare(k.api('api_ghost'), event(1_000, 'api_ghost'));
    const real = event(2_000, 'api_real');
    await storage.apis.insert({ id: 'api_real', workspaceId: WORKSPACE_ID, name: 'real', keyspaceId: 'ks_1', createdAt: 1 }, real);
    expect((await storage.audit.list({ limit: 10 })).items).toEqual([real]);
    expect(await storage.apis.get('api_ghost')).toBeNull();
    expect(await client.zcard(audit.indexKey)).toBe(2);
    await storage.audit.prune(1_500);
    expect(await client.zcard(audit.indexKey)).toBe(1);
    expect((await storage.audit.list({ limit: 10 })).items).toEqual([real]);
  });

  it('the event is stored in the slot of the record it describes', async () => {
    const e = event(3_000, 'api_slot');
    await storage.apis.insert({ id: 'api_slot', workspaceId: WORKSPACE_ID, name: 'slot', keyspaceId: 'ks_1', createdAt: 1 }, e);
    const eventsKey = `${prefix}audit:{api_slot}:events`;
    expect(await client.hexists(eventsKey, e.id)).toBe(1);
    expect(calculateSlot(eventsKey)).toBe(calculateSlot(k.api('api_slot')));
  });
});
