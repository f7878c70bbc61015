/**
 * Redis key, permission and role stores whose steps a test can stop at, so an attach or an insert
 * can run at an exact point of a permission or role delete (mark → strip the keys → remove), or a
 * delete can run at an exact point of an insert (write → read the records again). Also counts the
 * reads of each record, to show that re-reads are batched.
 */
import type { RedisClient } from '../../src/redis/client.js';
import { RedisKeyStore } from '../../src/storage/redis/key-store.js';
import { storageKeys, type StorageKeys } from '../../src/storage/redis/keys.js';
import { RedisPermissionStore } from '../../src/storage/redis/permissions.js';
import { RecordIo } from '../../src/storage/redis/record-io.js';
import { RedisRoleStore } from '../../src/storage/redis/roles.js';
import { UniqueIndex } from '../../src/storage/redis/unique-index.js';
import type { CreditsRecord, KeyRecord } from '../../src/storage/records.js';
import { gate, type Gate } from '../support/gate.js';
import { connect, freshPrefix, type Topology } from './redis-storage-runner.js';

/** Counts `get` per Redis key (getMany reads through it). */
export class CountingIo extends RecordIo {
  readonly reads = new Map<string, number>();

  override async get<T>(key: string): Promise<T | null> {
    this.reads.set(key, (this.reads.get(key) ?? 0) + 1);
    return super.get<T>(key);
  }
}

export class PausingKeyStore extends RedisKeyStore {
  private deleteStop: { readonly at: 'before' | 'after'; readonly gate: Gate } | null = null;
  private insertStop: Gate | null = null;

  /** Runs `del` up to `at` its strip of the keys (rewriteWorkspace); resolves once it waits there. */
  async stopDelete(at: 'before' | 'after', del: () => Promise<boolean>): Promise<{ open(): Promise<boolean> }> {
    const stopped = gate();
    this.deleteStop = { at, gate: stopped };
    const deleting = del();
    await stopped.reached;
    return { open: () => { stopped.open(); return deleting; } };
  }

  /** The next insert waits at this gate once its record is written. */
  stopAfterNextInsert(): Gate {
    this.insertStop = gate();
    return this.insertStop;
  }

  override async rewriteWorkspace(workspaceId: string, change: (key: KeyRecord) => KeyRecord | null): Promise<void> {
    const stop = this.deleteStop;
    this.deleteStop = null;
    if (stop?.at === 'before') await stop.gate.pass();
    await super.rewriteWorkspace(workspaceId, change);
    if (stop?.at === 'after') await stop.gate.pass();
  }

  override async insert(record: KeyRecord, credits: CreditsRecord | null): Promise<void> {
    await super.insert(record, credits);
    const stop = this.insertStop;
    this.insertStop = null;
    if (stop) await stop.pass();
  }
}

export interface PausingStores {
  readonly client: RedisClient;
  readonly k: StorageKeys;
  readonly io: CountingIo;
  readonly keys: PausingKeyStore;
  readonly permissions: RedisPermissionStore;
  readonly roles: RedisRoleStore;
}

/** Fresh stores under a new key prefix; the caller quits `client`. */
export async function openPausingStores(topology: Topology): Promise<PausingStores> {
  const client = await connect(topology);
  const k = storageKeys(freshPrefix());
  const io = new CountingIo(client);
  const index = new UniqueIndex(client);
  const keys = new PausingKeyStore(client, k, io, index, Date.now);
  return { client, k, io, keys, permissions: new RedisPermissionStore(client, k, io, index, keys), roles: new RedisRoleStore(client, k, io, index, keys) };
}
