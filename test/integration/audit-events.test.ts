/**
 * Every state-changing procedure records exactly one audit event (src/audit/event.ts), with the
 * caller, the request id and the records it changed; reads, verifications and limits record none;
 * no event holds a key, root key or hash the test handed out or sent. Embedded and on the run's
 * Redis Cluster, over real HTTP.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/auth/permissions.js';
import type { Config } from '../../src/config.js';
import { routes } from '../../src/routes/index.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createMigration, foreignKey } from '../support/migrations.js';

/** Procedures that change nothing a configuration audit cares about. */
const NOT_AUDITED = [
  'analytics.getVerifications', 'apis.getApi', 'apis.listApis', 'apis.listKeys', 'auditLogs.listAuditLogs', 'identities.getIdentity',
  'identities.listIdentities', 'keys.getKey', 'keys.verifyKey', 'keys.whoami', 'permissions.getPermission', 'permissions.getRole',
  'permissions.listPermissions', 'permissions.listRoles', 'ratelimit.getOverride', 'ratelimit.limit', 'ratelimit.listNamespaces',
  'ratelimit.listOverrides', 'ratelimit.multiLimit', 'rootKeys.listRootKeys',
];

function clusterSettings(): Partial<Config> {
  const clusterNodes = inject('redisClusterNodes').split(',').map((node) => {
    const [host, port] = node.split(':');
    return { host: host!, port: Number(port) };
  });
  return { redis: { clusterNodes, commandTimeoutMs: 5_000, keyPrefix: `kg-audit-${randomBytes(4).toString('hex')}:` } };
}

test('every procedure is either audited or listed here as one that changes no configuration', () => {
  expect(routes.filter((r) => r.audited !== true).map((r) => r.name).sort()).toEqual([...NOT_AUDITED].sort());
});

describe.each([['embedded', () => ({})], ['redis cluster', clusterSettings]] as const)('audit events: %s', (_mode, settings) => {
  let h: Harness & { stop(): Promise<void> };
  beforeAll(async () => { h = await startHarness(settings()); });
  afterAll(async () => { await h?.stop(); });

  /** The whole log, newest first. */
  async function allEvents(): Promise<any[]> {
    const out: any[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await h.call('auditLogs.listAuditLogs', { limit: 100, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      out.push(...res.body.data);
      if (!res.body.pagination.hasMore) return out;
      cursor = res.body.pagination.cursor;
    }
  }

  test('each mutating procedure records exactly one event with its actor and targets; reads record none; no secret is kept', async () => {
    const secrets: string[] = [h.adminKey];
    const covered = new Set<string>();
    const actor = await h.call('rootKeys.createRootKey', { name: 'auditor', permissions: ALL_PERMISSIONS });
    expect(actor.status).toBe(200);
    secrets.push(actor.body.data.key);
    covered.add('rootKeys.createRootKey');
    const [first] = await allEvents();
    expect(first).toMatchObject({ procedure: 'rootKeys.createRootKey', targets: [{ type: 'root_key', id: actor.body.data.rootKeyId, name: 'auditor' }] });
    const actorKey: string = actor.body.data.key;
    const actorId: string = actor.body.data.rootKeyId;

    /** Calls `procedure` as the auditor and checks the one event it added; resolves the answer's data. */
    async function audited(procedure: string, body: unknown, targetIds: readonly string[] | ((data: any) => readonly string[])): Promise<any> {
      const before = new Set((await allEvents()).map((e) => e.eventId));
      const res = await h.call(procedure, body, { rootKey: actorKey });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const fresh = (await allEvents()).filter((e) => !before.has(e.eventId));
      expect(fresh, procedure).toHaveLength(1);
      expect(fresh[0]).toMatchObject({ procedure, requestId: res.headers.get('x-request-id'), actor: { type: 'root_key', id: actorId, name: 'auditor' } });
      expect(fresh[0].clientAddress).toBeTruthy();
      const ids = typeof targetIds === 'function' ? targetIds(res.body.data) : targetIds;
      for (const id of ids) expect(fresh[0].targets.map((t: any) => t.id), procedure).toContain(id);
      covered.add(procedure);
      return res.body.data;
    }

    const { apiId } = await audited('apis.createApi', { name: 'audited' }, (d) => [d.apiId]);
    const { identityId } = await audited('identities.createIdentity', { externalId: 'acme' }, (d) => [d.identityId]);
    await audited('identities.updateIdentity', { identity: 'acme', meta: { plan: 'pro' } }, [identityId]);
    const { permissionId } = await audited('permissions.createPermission', { name: 'read', slug: 'read' }, (d) => [d.permissionId]);
    const { roleId } = await audited('permissions.createRole', { name: 'reader', permissions: ['read'] }, (d) => [d.roleId, permissionId]);
    await audited('permissions.setRolePermissions', { roleId, permissions: ['read', 'write'] }, [roleId, permissionId]);
    const created = await audited('keys.createKey', { apiId, externalId: 'acme', permissions: ['read'], roles: ['reader'], credits: { remaining: 10 } },
      (d) => [d.keyId, apiId, identityId, permissionId, roleId]);
    secrets.push(created.key);
    const keyId: string = created.keyId;
    await audited('keys.updateKey', { keyId, name: 'renamed', credits: { remaining: 5 } }, [keyId, apiId]);
    await audited('keys.updateCredits', { keyId, operation: 'increment', value: 3 }, [keyId]);
    await audited('keys.addPermissions', { keyId, permissions: ['write'] }, [keyId]);
    await audited('keys.removePermissions', { keyId, permissions: ['write'] }, [keyId]);
    await audited('keys.setPermissions', { keyId, permissions: ['read'] }, [keyId, permissionId]);
    await audited('keys.addRoles', { keyId, roles: ['reader'] }, [keyId, roleId]);
    await audited('keys.removeRoles', { keyId, roles: ['reader'] }, [keyId, roleId]);
    await audited('keys.setRoles', { keyId, roles: ['reader'] }, [keyId, roleId]);
    const rerolled = await audited('keys.rerollKey', { keyId, expiration: 0 }, (d) => [d.keyId, keyId]);
    secrets.push(rerolled.key);

    const migrationId = await createMigration(h);
    const foreign = foreignKey();
    secrets.push(foreign.plaintext, foreign.base64);
    await audited('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: foreign.base64, name: 'imported' }] }, (d) => [d.migrated[0].keyId, migrationId]);

    // Reads, verifications and limits record nothing; the limit makes the namespace the overrides need.
    const quiet = (await allEvents()).length;
    expect((await h.verify(rerolled.key)).status).toBe(200);
    expect((await h.call('ratelimit.limit', { namespace: 'sms', identifier: 'u1', limit: 5, duration: 60_000 }, { rootKey: actorKey })).status).toBe(200);
    expect((await h.call('ratelimit.multiLimit', [{ namespace: 'sms', identifier: 'u2', limit: 5, duration: 60_000 }], { rootKey: actorKey })).status).toBe(200);
    expect((await h.call('keys.getKey', { keyId })).status).toBe(200);
    expect((await h.call('keys.whoami', { key: rerolled.key })).status).toBe(200);
    expect(await allEvents()).toHaveLength(quiet);

    const { overrideId } = await audited('ratelimit.setOverride', { namespace: 'sms', identifier: 'u1', limit: 9, duration: 60_000 }, (d) => [d.overrideId]);
    await audited('ratelimit.deleteOverride', { namespace: 'sms', identifier: 'u1' }, [overrideId]);
    await audited('keys.deleteKey', { keyId: rerolled.keyId }, [rerolled.keyId]);
    await audited('permissions.deleteRole', { role: roleId }, [roleId]);
    await audited('permissions.deletePermission', { permission: permissionId }, [permissionId]);
    await audited('identities.deleteIdentity', { identity: identityId }, [identityId]);
    await audited('apis.deleteApi', { apiId }, [apiId]);
    const other = await h.call('rootKeys.createRootKey', { name: 'short-lived', permissions: ['api.*.read_api'] }, { rootKey: actorKey });
    secrets.push(other.body.data.key);
    await audited('rootKeys.revokeRootKey', { rootKeyId: other.body.data.rootKeyId }, [other.body.data.rootKeyId]);

    expect([...covered].sort()).toEqual(routes.filter((r) => r.audited).map((r) => r.name).sort());
    const log = JSON.stringify(await allEvents());
    for (const secret of secrets) expect(log.includes(secret), 'an event holds a secret').toBe(false);
  });

  test('a root key without audit_log.*.read_audit_log cannot read the log, one with only it can', async () => {
    const without = await h.rootKey(ALL_PERMISSIONS.filter((p) => p !== 'audit_log.*.read_audit_log'));
    expect((await h.call('auditLogs.listAuditLogs', {}, { rootKey: without })).status).toBe(403);
    const only = await h.rootKey(['audit_log.*.read_audit_log']);
    expect((await h.call('auditLogs.listAuditLogs', {}, { rootKey: only })).status).toBe(200);
  });
});
