/**
 * The response schemas are true: a realistic session calls every procedure, and each 200's `data`
 * must fit the procedure's own response schema (ajv, strict, closed objects closed), and the
 * whole body what the OpenAPI document promises for it. A few errors are checked the same way.
 * A procedure the session does not call fails it: add the procedure to the session with its route.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { buildOpenApiDocument, responseSchemaOf } from '../../src/openapi/document.js';
import type { Route } from '../../src/routes/define.js';
import { routes } from '../../src/routes/index.js';
import { callKeygate, useHarness, type CallResult } from '../support/harness.js';
import { createMigration, foreignKey } from '../support/migrations.js';
import { newAjv, ResponseConformance, validateDocument } from './conformance.js';

const byName = new Map<string, Route>(routes.map((r) => [r.name, r]));
const ajv = newAjv();
const dataValidators = new Map<string, ValidateFunction>();
let conformance: ResponseConformance;

/** Why this 200 body of `procedure` does not fit its response schema, or null. */
function dataProblem(procedure: string, body: any): string | null {
  const route = byName.get(procedure)!;
  const schema = responseSchemaOf(route);
  if (schema === undefined) return `${procedure} has no response schema`;
  if (schema === null) return 'data' in body ? 'a procedure without data answered data' : null;
  let validate = dataValidators.get(procedure);
  if (!validate) {
    validate = ajv.compile(schema);
    dataValidators.set(procedure, validate);
  }
  // A list procedure's schema describes one item of the page.
  const values: unknown[] = route.list ? body.data : [body.data];
  for (const value of values) if (!validate(value)) return ajv.errorsText(validate.errors, { dataVar: 'data' });
  return null;
}

describe('every procedure answers what its response schema says', () => {
  const h = useHarness();

  beforeAll(async () => {
    const { resolved } = await validateDocument(buildOpenApiDocument(routes, { docsUrl: h.keygate.services.config.docsUrl }));
    conformance = new ResponseConformance(resolved);
  });

  /** Procedures that answered a 200 in the session. */
  const answered = new Set<string>();

  async function ok(procedure: string, body: unknown): Promise<any> {
    const res = await h.call(procedure, body);
    expect(res.status, `${procedure}: ${JSON.stringify(res.body)}`).toBe(200);
    expect(dataProblem(procedure, res.body), `${procedure} data: ${JSON.stringify(res.body.data)}`).toBeNull();
    expect(conformance.problem(`/v2/${procedure}`, 'post', 200, res.body), `${procedure} body`).toBeNull();
    answered.add(procedure);
    return res.body.data;
  }

  const verify = async (key: string, extra: Record<string, unknown> = {}): Promise<string> => (await ok('keys.verifyKey', { key, ...extra })).code;

  test('a session across every procedure', async () => {
    const { apiId } = await ok('apis.createApi', { name: 'openapi-session' });
    await ok('apis.getApi', { apiId });
    await ok('apis.listApis', { limit: 1 });

    await ok('permissions.createPermission', { name: 'Read documents', slug: 'documents.read', description: 'May read documents' });
    await ok('permissions.createPermission', { name: 'documents.write', slug: 'documents.write' });
    const { roleId } = await ok('permissions.createRole', { name: 'reader', description: 'Reads', permissions: ['documents.read'] });
    await ok('permissions.createRole', { name: 'auditor' });
    await ok('permissions.getPermission', { permission: 'documents.read' });
    await ok('permissions.getRole', { role: 'reader' });
    expect((await h.call('permissions.listPermissions', { limit: 1 })).body.pagination.hasMore).toBe(true);
    await ok('permissions.listPermissions', { limit: 1 });
    await ok('permissions.listRoles', {});
    await ok('permissions.setRolePermissions', { roleId, permissions: ['documents.read', 'documents.write'] });

    const requests = { name: 'requests', limit: 100, duration: 60_000, autoApply: true };
    await ok('identities.createIdentity', { externalId: 'acme', meta: { plan: 'pro' }, ratelimits: [requests] });
    await ok('identities.createIdentity', { externalId: 'globex' });
    await ok('identities.getIdentity', { identity: 'acme' });
    await ok('identities.listIdentities', { limit: 1 });
    await ok('identities.updateIdentity', {
      identity: 'acme', meta: { plan: 'enterprise' }, ratelimits: [requests, { name: 'bulk', limit: 10, duration: 60_000, autoApply: false }],
    });

    const full = await ok('keys.createKey', {
      apiId, prefix: 'doc', name: 'everything', externalId: 'acme', meta: { team: 'docs' }, roles: ['reader'], permissions: ['documents.write'],
      expires: Date.now() + 86_400_000, credits: { remaining: 50, refill: { interval: 'monthly', amount: 50, refillDay: 1 } },
      ratelimits: [{ name: 'burst', limit: 5, duration: 1000, autoApply: false }],
    });
    const bare = await ok('keys.createKey', { apiId });
    const daily = await ok('keys.createKey', { apiId, credits: { remaining: 1, refill: { interval: 'daily', amount: 1 } } });
    await ok('keys.getKey', { keyId: full.keyId });
    await ok('keys.getKey', { keyId: bare.keyId });
    await ok('keys.whoami', { key: full.key });
    await ok('apis.listKeys', { apiId, limit: 2 });
    await ok('apis.listKeys', { apiId, externalId: 'acme' });

    expect(await verify(full.key, {
      permissions: 'documents.read AND documents.write', tags: ['path=/docs'], credits: { cost: 2 },
      ratelimits: [{ name: 'burst' }, { name: 'inline', limit: 3, duration: 1000 }],
    })).toBe('VALID');
    expect(await verify(bare.key)).toBe('VALID');
    expect(await verify(daily.key)).toBe('VALID');
    expect(await verify(daily.key)).toBe('USAGE_EXCEEDED');
    expect(await verify(full.key, { permissions: 'admin' })).toBe('INSUFFICIENT_PERMISSIONS');
    expect(await verify(bare.key, { ratelimits: [{ name: 'closed', limit: 0, duration: 1000 }] })).toBe('RATE_LIMITED');
    expect(await verify('doc_not_a_real_key')).toBe('NOT_FOUND');

    await ok('keys.updateKey', { keyId: bare.keyId, name: 'renamed', enabled: false, meta: { x: 1 }, credits: { remaining: 5, refill: { interval: 'daily', amount: 5 } } });
    expect(await verify(bare.key)).toBe('DISABLED');
    await ok('keys.updateCredits', { keyId: full.keyId, operation: 'increment', value: 5 });
    await ok('keys.updateCredits', { keyId: bare.keyId, operation: 'decrement', value: 1 });
    await ok('keys.updateCredits', { keyId: bare.keyId, operation: 'set' });
    await ok('keys.updateCredits', { keyId: full.keyId, operation: 'set', value: 10 });

    await ok('keys.addPermissions', { keyId: full.keyId, permissions: ['documents.read', 'reports.read'] });
    await ok('keys.removePermissions', { keyId: full.keyId, permissions: ['reports.read'] });
    await ok('keys.setPermissions', { keyId: full.keyId, permissions: ['documents.write'] });
    await ok('keys.addRoles', { keyId: full.keyId, roles: ['auditor'] });
    await ok('keys.removeRoles', { keyId: full.keyId, roles: ['auditor'] });
    await ok('keys.setRoles', { keyId: full.keyId, roles: ['reader'] });
    await ok('keys.getKey', { keyId: full.keyId });

    await ok('keys.rerollKey', { keyId: daily.keyId, expiration: 0 });
    expect(await verify(daily.key)).toBe('EXPIRED');
    await h.keygate.services.recorder.flush();
    const usage = await ok('analytics.getVerifications', { query: 'SELECT outcome, count(*) AS n FROM key_verifications_v1 GROUP BY outcome' });
    expect(usage.length).toBeGreaterThan(0);

    const migrationId = await createMigration(h);
    const legacy = foreignKey();
    const migrated = await ok('keys.migrateKeys', { migrationId, apiId, keys: [{ hash: legacy.hex, name: 'legacy', externalId: 'globex' }, { hash: legacy.hex }] });
    expect(migrated.failed).toEqual([legacy.hex]);
    await ok('keys.getKey', { keyId: migrated.migrated[0].keyId });

    const sms = { namespace: 'sms', limit: 2, duration: 60_000 };
    await ok('ratelimit.limit', { ...sms, identifier: '+15550100' });
    await ok('ratelimit.setOverride', { namespace: 'sms', identifier: 'vip_*', limit: 100, duration: 60_000 });
    await ok('ratelimit.setOverride', { namespace: 'sms', identifier: 'blocked', limit: 0, duration: 60_000 });
    await ok('ratelimit.getOverride', { namespace: 'sms', identifier: 'vip_7' });
    await ok('ratelimit.listOverrides', { namespace: 'sms', limit: 1 });
    expect((await ok('ratelimit.limit', { ...sms, identifier: 'vip_7' })).overrideId).toBeDefined();
    await ok('ratelimit.multiLimit', [{ ...sms, identifier: 'vip_7' }, { namespace: 'email', identifier: 'u1', limit: 1, duration: 60_000, cost: 2 }]);
    await ok('ratelimit.deleteOverride', { namespace: 'sms', identifier: 'blocked' });
    await ok('ratelimit.listNamespaces', { search: 'sms' });

    const { rootKeyId } = await ok('rootKeys.createRootKey', { name: 'readonly', permissions: ['api.*.read_api'] });
    await ok('rootKeys.revokeRootKey', { rootKeyId });
    await ok('rootKeys.listRootKeys', {});

    await ok('identities.deleteIdentity', { identity: 'globex' });
    await ok('keys.deleteKey', { keyId: bare.keyId });
    await ok('permissions.deletePermission', { permission: 'documents.write' });
    await ok('permissions.deleteRole', { role: 'auditor' });
    await ok('apis.deleteApi', { apiId });
    // Every change above is in the log: a page of it, filtered, and the next page.
    const firstPage = await h.call('auditLogs.listAuditLogs', { limit: 2, procedure: 'keys.updateCredits' });
    expect(firstPage.body.pagination.hasMore).toBe(true);
    expect((await ok('auditLogs.listAuditLogs', { limit: 5, cursor: firstPage.body.pagination.cursor })).length).toBe(5);

    const missed = routes.map((r) => r.name).filter((name) => !answered.has(name));
    expect(missed, 'procedures this session never called with success: add them above').toEqual([]);
  });

  test('the service paths answer what the document says', async () => {
    const checks: [string, string, number][] = [['/v2/liveness', 'get', 200], ['/v2/liveness', 'post', 200], ['/v2/readiness', 'get', 200]];
    for (const [path, method, status] of checks) {
      const res = await callKeygate(h.url, path, undefined, { method: method.toUpperCase(), rootKey: null });
      expect(res.status).toBe(status);
      expect(conformance.problem(path, method, status, res.body), `${method} ${path}`).toBeNull();
    }
  });

  test('errors have a documented status and the documented envelope', async () => {
    const rootKey = await h.rootKey([]);
    const cases: [string, unknown, CallResult][] = [];
    const call = async (procedure: string, body: unknown, options = {}) => cases.push([procedure, body, await h.call(procedure, body, options)]);
    await call('apis.createApi', { name: 'x' });
    await call('apis.createApi', { name: 'valid-name' }, { rootKey: null });
    await call('apis.createApi', { name: 'valid-name' }, { rootKey });
    await call('keys.getKey', { keyId: 'key_missing' });
    await call('identities.createIdentity', { externalId: 'twice' });
    await call('identities.createIdentity', { externalId: 'twice' });
    const { apiId } = (await h.call('apis.createApi', { name: 'errors-api' })).body.data;
    const { key } = await h.createKey({ apiId });
    await call('keys.verifyKey', { key, permissions: 'a AND (' });
    await call('keys.verifyKey', { key, ratelimits: [{ name: 'never-configured' }] });
    await call('keys.createKey', { apiId, recoverable: true });
    for (const [procedure, body, res] of cases) {
      if (res.status === 200) continue; // the first createIdentity
      expect(conformance.problem(`/v2/${procedure}`, 'post', res.status, res.body), `${procedure} ${JSON.stringify(body)} → ${res.status}`).toBeNull();
    }
    expect(new Set(cases.map(([, , res]) => res.status))).toEqual(new Set([200, 400, 401, 403, 404, 409, 412]));
  });
});
