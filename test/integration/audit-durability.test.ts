/**
 * A change and its audit event commit together: keygate is killed (SIGKILL) in the middle of a
 * stream of createApi, createKey, updateKey and deleteKey calls, restarted, and the log and the
 * records must agree exactly: every record the stream made has its event, every event's change is
 * there, and each key's name is the one its newest updateKey event set. Embedded (LMDB), on a
 * standalone Redis and on the 3-master Redis Cluster.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { spawnKeygate, type ChildKeygate } from '../support/process.js';

const ROOT_KEY = 'audit_durability_root_key_0123456789';
const WORKERS = 12;
const KILL_AFTER = 300;

type Call = (procedure: string, body: unknown) => Promise<{ status: number; body: any }>;

function settings(mode: string): { env: Record<string, string>; cleanup(): void } {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-audit-kill-'));
  const prefix = { REDIS_KEY_PREFIX: `kg-audit-kill-${randomBytes(4).toString('hex')}:` };
  const env = mode === 'embedded' ? { DATA_DIR: dataDir }
    : mode === 'redis' ? { DATA_DIR: dataDir, REDIS_URL: inject('redisUrl'), ...prefix }
      : { DATA_DIR: dataDir, REDIS_CLUSTER_NODES: inject('redisClusterNodes'), ...prefix };
  return { env: { ...env, ROOT_KEY }, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** Every page of a list procedure, as one array. */
async function everything(call: Call, procedure: string, body: Record<string, unknown> = {}): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await call(procedure, { ...body, limit: 100, ...(cursor ? { cursor } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data);
    if (!res.body.pagination.hasMore) return out;
    cursor = res.body.pagination.cursor;
  }
}

const sorted = (values: Iterable<string>): string[] => [...values].sort();

describe.each(['embedded', 'redis', 'redis cluster'])('audit events survive SIGKILL with their changes: %s', (mode) => {
  test('after a kill mid-stream and a restart, events and changes agree', async () => {
    const { env, cleanup } = settings(mode);
    let server: ChildKeygate = await spawnKeygate(env);
    const call: Call = (procedure, body) => callKeygate(server.url, `/v2/${procedure}`, body, { rootKey: ROOT_KEY });
    try {
      const { apiId } = (await call('apis.createApi', { name: 'keys-of-the-stream' })).body.data;
      const acknowledged = { apis: [] as string[], keys: [] as string[], deleted: [] as string[] };
      let count = 0;
      let killed = false;
      const worker = async (w: number): Promise<void> => {
        const mine: string[] = [];
        for (let n = 0; !killed; n++) {
          try {
            if (n % 4 === 0) {
              const res = await call('apis.createApi', { name: `audit-stream-${w}-${n}` });
              if (res.status === 200) acknowledged.apis.push(res.body.data.apiId);
            } else if (n % 4 === 1 || mine.length === 0) {
              const res = await call('keys.createKey', { apiId, name: `w${w}-${n}` });
              if (res.status === 200) { acknowledged.keys.push(res.body.data.keyId); mine.push(res.body.data.keyId); }
            } else if (n % 4 === 2) {
              await call('keys.updateKey', { keyId: mine[mine.length - 1], name: `w${w}-${n}` });
            } else {
              const keyId = mine.shift()!;
              const res = await call('keys.deleteKey', { keyId });
              if (res.status === 200) acknowledged.deleted.push(keyId);
            }
            if (++count === KILL_AFTER) {
              killed = true;
              await server.kill('SIGKILL');
            }
          } catch {
            return; // the connection died with the process: that call was never acknowledged
          }
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      expect(killed).toBe(true);

      server = await spawnKeygate(env);
      const events = await everything(call, 'auditLogs.listAuditLogs');
      const of = (procedure: string) => events.filter((e) => e.procedure === procedure);

      // APIs: exactly those with a createApi event exist.
      const apis = (await everything(call, 'apis.listApis')).filter((a) => a.name.startsWith('audit-stream-')).map((a) => a.id);
      const created = of('apis.createApi').filter((e) => e.targets[0].name.startsWith('audit-stream-')).map((e) => e.targets[0].id);
      expect(sorted(apis)).toEqual(sorted(created));
      for (const id of acknowledged.apis) expect(apis).toContain(id);

      // Keys: those created minus those deleted, by the log, are exactly the keys there.
      const keyEvents = (procedure: string): string[] => of(procedure).filter((e) => e.targets.some((t: any) => t.id === apiId)).map((e) => e.targets[0].id);
      const madeKeys = new Set(keyEvents('keys.createKey'));
      const gone = new Set(keyEvents('keys.deleteKey'));
      const keys = (await everything(call, 'apis.listKeys', { apiId })).map((k) => k.keyId);
      expect(sorted(keys)).toEqual(sorted([...madeKeys].filter((id) => !gone.has(id))));
      for (const id of gone) expect(madeKeys.has(id)).toBe(true);
      for (const id of acknowledged.keys) expect(madeKeys.has(id)).toBe(true);
      for (const id of acknowledged.deleted) expect(gone.has(id)).toBe(true);

      // Each key's name is the one set by its newest updateKey event (or by createKey without one).
      for (const key of await everything(call, 'apis.listKeys', { apiId })) {
        const latest = events.find((e) => (e.procedure === 'keys.updateKey' || e.procedure === 'keys.createKey') && e.targets[0].id === key.keyId);
        expect(key.name, key.keyId).toBe(latest.changes.name);
      }
    } finally {
      await server.kill();
      cleanup();
    }
  }, 120_000);
});
