import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENV_ROOT_KEY_ID, newRootKey, syncEnvRootKey } from '../../src/auth/bootstrap.js';
import { ACTIONS, ALL_PERMISSIONS, permissionProblem, requireAny, type Principal } from '../../src/auth/permissions.js';
import { ApiError } from '../../src/errors/api-error.js';
import { hashKey } from '../../src/keys/format.js';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import type { Storage } from '../../src/storage/types.js';

const principal = (permissions: readonly string[]): Principal => ({ rootKeyId: 'rk_test', workspaceId: 'ws_keygate', permissions: new Set(permissions) });

describe('permissionProblem', () => {
  it.each(['api.*.verify_key', 'api.api_123.create_key', 'ratelimit.rlns_abc.limit', 'ratelimit.*.set_override', 'rbac.*.add_role_to_key', 'identity.*.read_identity'])(
    'accepts %s', (p) => {
      expect(permissionProblem(p)).toBeNull();
    });

  it.each([
    'api.*.*', 'foo.*.read', 'api.*.fly', 'api.*', 'api..verify_key', '*.*.verify_key', 'api.*.verify_key.extra',
    'API.*.verify_key', 'ratelimit.*.verify_key', 'api.a b.read_api', '',
  ])('rejects %j', (p) => {
    const problem = permissionProblem(p);
    expect(problem).toEqual(expect.any(String));
    expect(problem!.length).toBeGreaterThan(0);
  });

  it('an unknown action names the resource type', () => {
    expect(permissionProblem('api.*.fly')).toContain('fly');
  });

  it('root_key tuples (keygate\'s own) exist only for every root key: root_key.*.<action>', () => {
    for (const p of ['root_key.*.create_root_key', 'root_key.*.read_root_key', 'root_key.*.revoke_root_key']) {
      expect(permissionProblem(p)).toBeNull();
      expect(ALL_PERMISSIONS).toContain(p);
    }
    expect(permissionProblem('root_key.rk_123.read_root_key')).toContain('root_key.*.read_root_key');
    expect(permissionProblem('root_key.*.verify_key')).toContain('verify_key');
  });
});

describe('requireAny', () => {
  it('passes when any one of the tuples is granted (exact match)', () => {
    expect(() => requireAny(principal(['api.api_1.read_api']), ['api.*.read_api', 'api.api_1.read_api'])).not.toThrow();
    expect(() => requireAny(principal(['api.*.read_api']), ['api.*.read_api', 'api.api_1.read_api'])).not.toThrow();
  });

  it('`*` in a grant is not a wildcard for other tuples', () => {
    expect(() => requireAny(principal(['api.*.read_api']), ['api.api_1.read_api'])).toThrow(ApiError);
    expect(() => requireAny(principal(['api.*.*']), ['api.*.read_api'])).toThrow(ApiError);
  });

  it('throws 403 forbidden naming the missing tuples', () => {
    const catchIt = (granted: string[], anyOf: string[]): ApiError => {
      try {
        requireAny(principal(granted), anyOf);
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        return err as ApiError;
      }
      throw new Error('requireAny did not throw');
    };
    const one = catchIt(['api.*.read_api'], ['api.*.create_key']);
    expect(one.code).toBe('err:keygate:authorization:forbidden');
    expect(one.detail).toContain("'api.*.create_key'");

    const two = catchIt([], ['api.*.verify_key', 'api.api_9.verify_key']);
    expect(two.code).toBe('err:keygate:authorization:forbidden');
    expect(two.detail).toContain("'api.*.verify_key'");
    expect(two.detail).toContain("'api.api_9.verify_key'");
  });
});

describe('ALL_PERMISSIONS', () => {
  it('is every <type>.*.<action> and nothing else, each well formed', () => {
    const expected = Object.entries(ACTIONS).flatMap(([type, actions]) => actions.map((a) => `${type}.*.${a}`));
    expect([...ALL_PERMISSIONS].sort()).toEqual([...expected].sort());
    expect(new Set(ALL_PERMISSIONS).size).toBe(ALL_PERMISSIONS.length);
    for (const p of ALL_PERMISSIONS) expect(permissionProblem(p), p).toBeNull();
    for (const p of ['api.*.verify_key', 'api.*.create_key', 'ratelimit.*.limit', 'ratelimit.*.create_namespace', 'identity.*.create_identity', 'rbac.*.create_role']) {
      expect(ALL_PERMISSIONS).toContain(p);
    }
  });
});

describe('syncEnvRootKey (real LMDB)', () => {
  let dir: string;
  let storage: Storage;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-bootstrap-'));
    storage = openLmdbStorage(dir);
  });
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const VALUE = 'env-root-key-value-0123456789';

  it('registers the value as rk_env with every permission, then is idempotent', async () => {
    expect(await syncEnvRootKey(storage.rootKeys, VALUE, 1_000)).toBe('registered');
    const found = await storage.rootKeys.findByHash(hashKey(VALUE));
    expect(found).not.toBeNull();
    expect(found!.id).toBe(ENV_ROOT_KEY_ID);
    expect(found!.revokedAt).toBeUndefined();
    expect([...found!.permissions].sort()).toEqual([...ALL_PERMISSIONS].sort());
    // Not a single character of the secret is stored.
    expect(JSON.stringify(found)).not.toContain(VALUE.slice(0, 8));

    expect(await syncEnvRootKey(storage.rootKeys, VALUE, 2_000)).toBe('unchanged');
    expect(await storage.rootKeys.list()).toHaveLength(1);
    expect((await storage.rootKeys.get(ENV_ROOT_KEY_ID))!.createdAt).toBe(1_000);
  });

  it('a changed value replaces the hash: the old value stops authenticating', async () => {
    await syncEnvRootKey(storage.rootKeys, VALUE, 1_000);
    const next = 'another-env-root-key-value-987';
    expect(await syncEnvRootKey(storage.rootKeys, next, 5_000)).toBe('registered');
    expect(await storage.rootKeys.findByHash(hashKey(VALUE))).toBeNull();
    expect((await storage.rootKeys.findByHash(hashKey(next)))?.id).toBe(ENV_ROOT_KEY_ID);
    expect(await storage.rootKeys.list()).toHaveLength(1);
  });

  it('an unset value removes it; root keys made otherwise are left alone', async () => {
    const cli = newRootKey('rk_cli', 'ops', ['api.*.read_api'], 500);
    await storage.rootKeys.put(cli.record);
    await syncEnvRootKey(storage.rootKeys, VALUE, 1_000);

    expect(await syncEnvRootKey(storage.rootKeys, undefined)).toBe('removed');
    expect(await storage.rootKeys.get(ENV_ROOT_KEY_ID)).toBeNull();
    expect(await storage.rootKeys.findByHash(hashKey(VALUE))).toBeNull();
    expect(await syncEnvRootKey(storage.rootKeys, undefined)).toBe('none');

    expect((await storage.rootKeys.findByHash(hashKey(cli.plaintext)))?.id).toBe('rk_cli');
    expect((await storage.rootKeys.list()).map((r) => r.id)).toEqual(['rk_cli']);
  });

  it('with no ROOT_KEY and nothing stored there is nothing to do', async () => {
    expect(await syncEnvRootKey(storage.rootKeys, undefined)).toBe('none');
    expect(await storage.rootKeys.list()).toEqual([]);
  });

  it('the registration survives a restart (close and reopen)', async () => {
    await syncEnvRootKey(storage.rootKeys, VALUE, 1_000);
    await storage.close();
    storage = openLmdbStorage(dir);
    expect(await syncEnvRootKey(storage.rootKeys, VALUE, 9_000)).toBe('unchanged');
    expect((await storage.rootKeys.findByHash(hashKey(VALUE)))?.id).toBe(ENV_ROOT_KEY_ID);
  });
});
