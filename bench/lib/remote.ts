/**
 * What the operator mode creates in a deployment, and how it is removed again: one API named
 * `keygate-bench-<runid>`, identities `keygate-bench-<runid>-<i>`, keys `kgb_…` in that API.
 * Nothing else is created, changed or deleted.
 */
import { IDENTITY_LIMITS, type Seeded } from './api.js';
import { KEY_PREFIX, ok, request, settledParallel, type Deployment } from './deployment.js';
import { CountProgress, log } from './progress.js';

/** What seeding, the scenarios and the cleanup need, as keygate names the permissions. */
export const NEEDED_PERMISSIONS = [
  'api.*.create_api', 'api.*.read_api', 'api.*.delete_api', 'api.*.create_key', 'api.*.read_key', 'api.*.delete_key',
  'api.*.verify_key', 'identity.*.create_identity', 'identity.*.delete_identity',
] as const;

/** What exists of a run in the deployment (or may: an attempt whose answer was lost counts). */
export interface BenchState {
  readonly runId: string;
  /** `keygate-bench-<runid>`: the API's name and the identities' externalId prefix. */
  readonly name: string;
  apiId?: string;
  apiCreateAttempted: boolean;
  /** Identities `<name>-0` … `<name>-(n-1)` may exist. */
  identitiesAttempted: number;
}

export const newState = (runId: string): BenchState => ({ runId, name: `keygate-bench-${runId}`, apiCreateAttempted: false, identitiesAttempted: 0 });
const identityName = (s: BenchState, i: number): string => `${s.name}-${i}`;

const PARALLEL_CALLS = 32;
/** createKey at full speed leaves many keys: deleting them is what the cleanup mostly waits for. */
const DELETES_IN_FLIGHT = 64;

/**
 * The permissions that can be checked without creating anything: each probe names something that
 * cannot exist (ids with `_` and `0` after the prefix are never generated), so an allowed call is
 * a 404 and a refused one a 403. create_api, create_identity and delete_key are checked by their
 * first use, before any load. Throws when the root key itself is refused.
 */
export async function missingPermissions(d: Deployment, s: BenchState): Promise<string[]> {
  const noApi = `api_keygate_bench_probe_0${s.runId}`;
  const probes: [permission: string, procedure: string, body: unknown][] = [
    ['api.*.verify_key', 'keys.verifyKey', { key: `${KEY_PREFIX}_keygate_bench_probe_0${s.runId}` }],
    ['api.*.delete_api', 'apis.deleteApi', { apiId: noApi }],
    ['api.*.read_api, api.*.read_key', 'apis.listKeys', { apiId: noApi }],
    ['api.*.create_key', 'keys.createKey', { apiId: noApi, prefix: KEY_PREFIX }],
    ['identity.*.delete_identity', 'identities.deleteIdentity', { identity: `${s.name}-probe` }],
  ];
  const missing: string[] = [];
  for (const [permission, procedure, body] of probes) {
    const a = await request(d, procedure, body);
    if (a.status === 401 || a.status === 429) throw new Error(`the root key was refused (${a.status}: ${a.detail})`);
    if (a.status === 403) missing.push(`${permission} (${procedure}: ${a.detail})`);
    else if (a.status !== 200 && a.status !== 404) throw new Error(`checking ${permission}: ${procedure} answered ${a.status}: ${a.detail}`);
  }
  return missing;
}

/** A refused first use names the permission; other failures as they are. */
function refused(permission: string, why: string, a: { status: number; detail: string }, procedure: string): Error {
  if (a.status === 403) return new Error(`the root key lacks '${permission}', ${why} (${procedure}: ${a.detail})`);
  return new Error(`${procedure} answered ${a.status}: ${a.detail}`);
}

/** The API, its identities with two never-denying limits, `keys` plain keys and `keys` identity keys. */
export async function seed(d: Deployment, s: BenchState, keys: number, identities: number, signal: AbortSignal): Promise<Seeded> {
  const started = Date.now();
  s.apiCreateAttempted = true;
  const api = await request<{ apiId: string }>(d, 'apis.createApi', { name: s.name });
  if (api.status !== 200 || !api.data) throw refused('api.*.create_api', 'needed to create the bench API', api, 'apis.createApi');
  const apiId = s.apiId = api.data.apiId;
  log(`  ✓ created API ${s.name} (${apiId})`);
  // delete_key can only be asked of an existing key: one is created and deleted before the rest.
  const canary = await ok<{ keyId: string }>(d, 'keys.createKey', { apiId, prefix: KEY_PREFIX });
  const deleted = await request(d, 'keys.deleteKey', { keyId: canary.keyId });
  if (deleted.status !== 200) throw refused('api.*.delete_key', 'needed to remove the keys the bench creates', deleted, 'keys.deleteKey');
  signal.throwIfAborted();

  const ids = new CountProgress(`creating identities ${s.name}-*`, identities);
  try {
    await settledParallel(identities, PARALLEL_CALLS, signal, async (i) => {
      s.identitiesAttempted = Math.max(s.identitiesAttempted, i + 1);
      const a = await request(d, 'identities.createIdentity', { externalId: identityName(s, i), ratelimits: IDENTITY_LIMITS });
      if (a.status !== 200) throw refused('identity.*.create_identity', 'needed to create the bench identities', a, 'identities.createIdentity');
      ids.add();
    });
  } finally { ids.finish(signal.aborted ? 'interrupted' : `${identities} identities, each with 2 limits that never deny`, !signal.aborted); }

  const plainKeys: string[] = new Array(keys);
  const limitedKeys: string[] = new Array(keys);
  const progress = new CountProgress(`creating keys ${KEY_PREFIX}_… in ${s.name}`, keys * 2);
  try {
    await settledParallel(keys * 2, PARALLEL_CALLS, signal, async (i) => {
      const limited = i >= keys;
      const j = limited ? i - keys : i;
      const body = limited ? { apiId, prefix: KEY_PREFIX, externalId: identityName(s, j % identities) } : { apiId, prefix: KEY_PREFIX };
      (limited ? limitedKeys : plainKeys)[j] = (await ok<{ key: string }>(d, 'keys.createKey', body)).key;
      progress.add();
    });
  } finally { progress.finish(signal.aborted ? 'interrupted' : `${keys} plain keys, ${keys} keys of the identities`, !signal.aborted); }
  return { apiId, plainKeys, limitedKeys, seconds: (Date.now() - started) / 1000 };
}

export interface CleanupReport {
  readonly keysDeleted: number;
  readonly identitiesDeleted: number;
  readonly apiDeleted: boolean;
  /** What could not be removed, for the operator to remove by hand. */
  readonly problems: string[];
}

/** The API of this run when its createApi answer was lost: found by its unique name. */
async function findApi(d: Deployment, s: BenchState): Promise<string | undefined> {
  let cursor: string | undefined;
  do {
    const a = await request<{ id: string; name: string }[]>(d, 'apis.listApis', { limit: 100, ...(cursor ? { cursor } : {}) });
    if (a.status !== 200 || !a.data) throw new Error(`apis.listApis answered ${a.status}: ${a.detail}`);
    const found = a.data.find((api) => api.name === s.name);
    if (found) return found.id;
    cursor = a.pagination?.hasMore ? a.pagination.cursor : undefined;
  } while (cursor);
  return undefined;
}

/** The ids of every key in the API. */
async function listKeyIds(d: Deployment, apiId: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await request<{ keyId: string }[]>(d, 'apis.listKeys', { apiId, limit: 100, ...(cursor ? { cursor } : {}) });
    if (page.status !== 200 || !page.data) throw new Error(`apis.listKeys answered ${page.status}: ${page.detail}`);
    for (const key of page.data) ids.push(key.keyId);
    cursor = page.pagination?.hasMore ? page.pagination.cursor : undefined;
  } while (cursor);
  return ids;
}

/** Deletes every key of the API; lists again until a listing finds none. */
async function deleteKeys(d: Deployment, apiId: string): Promise<number> {
  let deleted = 0;
  for (let pass = 0; pass < 3; pass++) {
    const ids = await listKeyIds(d, apiId);
    if (ids.length === 0) return deleted;
    const progress = new CountProgress('deleting the bench keys', ids.length);
    let ok = false;
    try {
      await settledParallel(ids.length, DELETES_IN_FLIGHT, undefined, async (i) => {
        const a = await request(d, 'keys.deleteKey', { keyId: ids[i]! });
        if (a.status !== 200 && a.status !== 404) throw new Error(`keys.deleteKey answered ${a.status}: ${a.detail}`);
        if (a.status === 200) deleted++;
        progress.add();
      });
      ok = true;
    } finally { progress.finish(`${deleted} deleted`, ok); }
  }
  throw new Error('keys kept appearing in the bench API while they were deleted');
}

/**
 * Removes what the run created: its keys, then its identities, then its API. If a key cannot be
 * deleted the API is kept, since keys of a deleted API stay stored and could no longer be listed.
 */
export async function cleanup(d: Deployment, s: BenchState): Promise<CleanupReport> {
  const problems: string[] = [];
  const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));
  let apiId = s.apiId;
  if (apiId === undefined && s.apiCreateAttempted) {
    apiId = await findApi(d, s).catch((err: unknown) => { problems.push(`looking for API ${s.name}: ${reason(err)}`); return undefined; });
  }
  let keysDeleted = 0;
  let keysLeft = false;
  if (apiId !== undefined) {
    keysDeleted = await deleteKeys(d, apiId).catch((err: unknown) => {
      keysLeft = true;
      problems.push(`keys of API ${s.name} (${apiId}): ${reason(err)}`);
      return 0;
    });
  }
  let identitiesDeleted = 0;
  await settledParallel(s.identitiesAttempted, PARALLEL_CALLS, undefined, async (i) => {
    const a = await request(d, 'identities.deleteIdentity', { identity: identityName(s, i) });
    if (a.status === 200) identitiesDeleted++;
    else if (a.status !== 404) problems.push(`identity ${identityName(s, i)}: ${a.status} ${a.detail}`);
  }).catch((err: unknown) => { problems.push(`identities ${s.name}-*: ${reason(err)}`); });
  let apiDeleted = false;
  if (apiId !== undefined && !keysLeft) {
    const a = await request(d, 'apis.deleteApi', { apiId }).catch((err: unknown) => ({ status: 0, detail: reason(err) }));
    apiDeleted = a.status === 200 || a.status === 404;
    if (!apiDeleted) problems.push(`API ${s.name} (${apiId}): ${a.status} ${a.detail}`);
  } else if (apiId !== undefined) problems.push(`API ${s.name} (${apiId}) kept, since keys are left in it`);
  return { keysDeleted, identitiesDeleted, apiDeleted, problems };
}
