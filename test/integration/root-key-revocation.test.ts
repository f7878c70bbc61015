/**
 * A revoked root key stops at once, whoever made it and whoever revoked it: for every way a root
 * key is made (rootKeys.createRootKey, the dashboard, ROOT_KEY, the CLI) and every way it is
 * revoked (rootKeys.revokeRootKey, the dashboard, the CLI), in the embedded mode and on Redis.
 * The key is used first, as a bearer and through a dashboard session, so every cache holds it
 * when the revocation comes from this process or from another one.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { startHarness, type Harness } from '../support/harness.js';
import { CLI_JS, run } from '../support/process.js';
import { recordSecret } from '../support/run-logs.js';

const CSRF = 'x-keygate-csrf';
/** The guarantee: a revocation from any process ends the key well within this. */
const TAKES_EFFECT_WITHIN_MS = 1_000;

type Maker = 'api' | 'dashboard' | 'ROOT_KEY' | 'cli';
type Revoker = 'api' | 'dashboard' | 'cli';
type Server = Harness & { stop(): Promise<void> };

interface Mode {
  readonly name: string;
  /** Settings for the server and the CLI (the CLI takes the same environment). */
  env(): Record<string, string>;
}

const MODES: Mode[] = [
  { name: 'embedded (LMDB)', env: () => ({}) },
  { name: 'Redis', env: () => ({ REDIS_URL: inject('redisUrl'), REDIS_KEY_PREFIX: `kg-revoke-${randomBytes(4).toString('hex')}:` }) },
];

interface Session { cookie: string; csrf: string }

async function signIn(h: Harness, rootKey: string): Promise<Session> {
  const res = await fetch(`${h.url}/dashboard/api/session`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rootKey }),
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: body.data.csrfToken };
}

const viaSession = (h: Harness, procedure: string, body: unknown, s: Session) =>
  h.call(procedure, body, { rootKey: null, headers: { cookie: s.cookie, [CSRF]: s.csrf } });

/** The answer a key gets as a bearer and through its session: 200 while live, 401 once revoked. */
async function statuses(h: Harness, key: string, session: Session): Promise<[number, number]> {
  const bearer = await h.call('apis.listApis', {}, { rootKey: key });
  const viaCookie = await viaSession(h, 'apis.listApis', {}, session);
  return [bearer.status, viaCookie.status];
}

async function cli(mode: Record<string, string>, h: Harness, ...args: string[]): Promise<string> {
  const res = await run(process.execPath, [CLI_JS, ...args], { DATA_DIR: h.dataDir, ...mode });
  expect(res.code, res.stderr).toBe(0);
  return res.stdout;
}

describe.each(MODES)('a root key revoked in the $name mode', (mode) => {
  const servers: Server[] = [];
  afterAll(async () => { for (const s of servers) await s.stop(); });

  async function server(env: Record<string, string>): Promise<Server> {
    const settings = loadConfig({ PORT: '0', DATA_DIR: '/unused', ...env });
    const overrides: Partial<Config> = { redis: settings.redis, rootKey: settings.rootKey };
    const h = await startHarness(overrides);
    servers.push(h);
    return h;
  }

  /** Makes a root key that may read APIs; answers its id and plaintext. */
  async function make(maker: Maker, env: Record<string, string>): Promise<{ h: Server; id: string; key: string }> {
    if (maker === 'ROOT_KEY') {
      const key = `kg-root-${randomBytes(24).toString('base64url')}`;
      return { h: await server({ ...env, ROOT_KEY: key }), id: 'rk_env', key };
    }
    const h = await server(env);
    const request = { name: `made-by-${maker}`, permissions: ['api.*.read_api'] };
    if (maker === 'cli') {
      // run() records the key the CLI prints for the end-of-run log search.
      const made = JSON.parse(await cli(env, h, 'root-key', 'create', '--name', request.name, '--permission', 'api.*.read_api'));
      return { h, id: made.id, key: made.key };
    }
    const res = maker === 'api'
      ? await h.call('rootKeys.createRootKey', request)
      : await viaSession(h, 'rootKeys.createRootKey', request, await signIn(h, h.adminKey));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    recordSecret(res.body.data.key);
    return { h, id: res.body.data.rootKeyId, key: res.body.data.key };
  }

  async function revoke(revoker: Revoker, h: Harness, env: Record<string, string>, id: string): Promise<void> {
    if (revoker === 'cli') {
      await cli(env, h, 'root-key', 'revoke', id);
      return;
    }
    const res = revoker === 'api'
      ? await h.call('rootKeys.revokeRootKey', { rootKeyId: id })
      : await viaSession(h, 'rootKeys.revokeRootKey', { rootKeyId: id }, await signIn(h, h.adminKey));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  const makers: Maker[] = ['api', 'dashboard', 'ROOT_KEY', 'cli'];
  const revokers: Revoker[] = ['api', 'dashboard', 'cli'];
  for (const maker of makers) {
    for (const revoker of revokers) {
      test(`made by ${maker}, revoked by ${revoker}: its bearer calls and its dashboard sessions get 401`, async () => {
        const env = mode.env();
        const { h, id, key } = await make(maker, env);
        const session = await signIn(h, key);
        // Used, so every cache of this process holds it.
        for (let i = 0; i < 3; i++) expect(await statuses(h, key, session)).toEqual([200, 200]);

        await revoke(revoker, h, env, id);
        const revokedAt = Date.now();
        for (;;) {
          const now = await statuses(h, key, session);
          if (now[0] === 401 && now[1] === 401) break;
          expect(Date.now() - revokedAt, `still answered ${now} after the revocation`).toBeLessThan(TAKES_EFFECT_WITHIN_MS);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        // It stays revoked, and the admin key is untouched.
        expect(await statuses(h, key, session)).toEqual([401, 401]);
        expect((await h.call('apis.listApis', {})).status).toBe(200);
      }, 60_000);
    }
  }
});
