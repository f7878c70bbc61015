/**
 * Hostile input, generated (seeded, so a failure can be replayed with its seed): at least 20,000
 * requests spread over every procedure, each one certain to be invalid: truncated JSON, invalid
 * UTF-8, a body that is not an object, wrong types in required fields (with huge numbers, huge
 * strings, deep nesting, `__proto__` and `constructor` keys), unknown fields, wrong content types,
 * oversized bodies, headers too long, odd methods and paths. Every answer must be a 4xx error envelope with
 * meta.requestId; none a 5xx; the server must keep serving; nothing may change in the store.
 */
import { open } from 'lmdb';
import { describe, expect, test } from 'vitest';
import { routes } from '../../src/routes/index.js';
import { useHarness } from '../support/harness.js';
import { prng } from '../support/prng.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 20_000);
const BODY_LIMIT = 4_096;


interface Case { method: string; path: string; contentType?: string; body?: Uint8Array | string; label: string; headers?: Record<string, string> }

type Schema = { type?: string | string[]; required?: string[]; properties?: Record<string, Schema>; additionalProperties?: boolean; items?: Schema };

function generator(seed: number) {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const junkString = (n: number) => Array.from({ length: n }, () => String.fromCharCode(32 + Math.floor(random() * 95))).join('');
  const deep = (depth: number): unknown => (depth === 0 ? 1 : [deep(depth - 1)]);
  /** A value of a type the schema does not allow, some of them extreme. */
  function wrongValue(schema: Schema | undefined): unknown {
    const types = new Set([schema?.type ?? []].flat());
    const candidates: unknown[] = [
      types.has('string') ? 1e308 : 'x'.repeat(Math.floor(random() * 3_000)),
      types.has('string') ? -(2 ** 64) : junkString(8),
      types.has('object') ? [deep(200)] : { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } },
      types.has('boolean') ? 'true' : true,
      types.has('array') ? { length: 1 } : [1, 'two', null],
    ];
    if (!types.has('null')) candidates.push(null);
    return pick(candidates);
  }
  const json = (value: unknown) => JSON.stringify(value);
  const routeCases = routes.map((route) => ({ path: `/v2/${route.name}`, schema: route.requestSchema as Schema }));

  return (): Case => {
    const { path, schema } = pick(routeCases);
    const isArrayBody = schema.type === 'array';
    const objectSchema = isArrayBody ? schema.items! : schema;
    const required = objectSchema.required ?? [];
    const base: Record<string, unknown> = { filler: junkString(5) };
    const strategy = Math.floor(random() * 10);
    const post = (body: Uint8Array | string, label: string, contentType = 'application/json'): Case => ({ method: 'POST', path, body, contentType, label });
    switch (strategy) {
      case 0: { // truncated JSON: the closing brace at least is gone
        const text = json({ ...base, [pick(required.length ? required : ['a'])]: junkString(10) });
        return post(text.slice(0, 1 + Math.floor(random() * (text.length - 1))), 'truncated');
      }
      case 1: { // invalid UTF-8 inside a string
        const text = Buffer.from(json({ name: 'abc' }));
        const at = text.indexOf('abc');
        return post(Buffer.concat([text.subarray(0, at), Buffer.from([pick([0xc3, 0xe2, 0xff, 0xed]), 0x28]), text.subarray(at)]), 'invalid utf-8');
      }
      case 2: // not an object (not an array, for multiLimit)
        return post(json(isArrayBody ? pick([{}, 7, 'x', null]) : pick([[], 7, 'x', null, true, [{}]])), 'not an object');
      case 3: // a wrong value in a required field (or an unknown field where nothing is required)
      case 4: {
        if (required.length === 0) return post(json({ unknownField: wrongValue(undefined), __proto__: null }), 'unknown field');
        const field = pick(required);
        const body = { ...base, [field]: wrongValue(objectSchema.properties?.[field]) };
        delete body.filler;
        return post(json(isArrayBody ? [body] : body), `wrong ${field}`);
      }
      case 5: // wrong or missing content type
        return { ...post(json({}), 'content type'), contentType: pick(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', '']) };
      case 6: // oversized
        return post(json({ name: 'x'.repeat(BODY_LIMIT + Math.floor(random() * 4_000)) }), 'oversized');
      case 8: // headers over keygate's 16 KiB; far beyond, uWS resets the connection (transport.test.ts)
        return { ...post(json({}), 'long headers'), headers: { 'x-junk': 'h'.repeat(17_000 + Math.floor(random() * 15_000)) } };
      case 7: // odd methods
        return { method: pick(['GET', 'PUT', 'DELETE', 'PATCH']), path, label: 'method' };
      default: // odd paths
        return { method: 'POST', path: pick(['/v2/', '/v2/keys', '/v2/keys.', `/v2/${junkString(12).replace(/[^a-z]/gi, '')}`, '/v3/keys.verifyKey', `${path}/extra`, `${path}x`]), contentType: 'application/json', body: '{}', label: 'path' };
    }
  };
}

describe('hostile input', () => {
  const h = useHarness({ bodyLimitBytes: BODY_LIMIT });

  /**
   * Every record of every store, byte for byte: each named database of the server's LMDB folder,
   * every key and value, read through a handle of its own. Any change anywhere shows.
   */
  async function snapshot(): Promise<Record<string, string[]>> {
    await h.keygate.services.recorder.flush();
    const root = open({ path: h.dataDir, noSubdir: false, maxDbs: 64 });
    const contents: Record<string, string[]> = {};
    for (const name of root.getKeys({ snapshot: true })) {
      if (typeof name !== 'string') continue;
      const db = root.openDB({ name, encoding: 'binary', keyEncoding: 'binary' });
      contents[name] = [...db.getRange({ snapshot: true })].map(({ key, value }) => `${(key as Buffer).toString('hex')}=${(value as Buffer).toString('hex')}`);
    }
    expect(Object.keys(contents)).toEqual(expect.arrayContaining(['keys', 'apis', 'root_keys', 'identities', 'verifications']));
    return contents;
  }

  test(`${REQUESTS} generated invalid requests over every procedure: 4xx envelopes only, nothing changes (seed ${SEED})`, async () => {
    const apiId = await h.createApi('fuzz');
    const before = await snapshot();
    const next = generator(SEED);
    const failures: string[] = [];
    const seenPaths = new Set<string>();
    let sent = 0;
    const worker = async () => {
      while (sent < REQUESTS) {
        sent++;
        const c = next();
        seenPaths.add(c.path);
        const headers: Record<string, string> = { authorization: `Bearer ${h.adminKey}` };
        if (c.contentType) headers['content-type'] = c.contentType;
        Object.assign(headers, c.headers);
        let res: Response;
        try {
          res = await fetch(`${h.url}${c.path}`, { method: c.method, headers, body: c.body as BodyInit | undefined });
        } catch (err) {
          if (failures.length < 10) failures.push(`${c.label} ${c.method} ${c.path} → no answer: ${String((err as Error).cause ?? err)}`);
          continue;
        }
        const text = await res.text();
        let envelope: any;
        try { envelope = JSON.parse(text); } catch { /* checked below */ }
        const ok = res.status >= 400 && res.status < 500 && typeof envelope?.meta?.requestId === 'string'
          && envelope?.error?.status === res.status && envelope.data === undefined;
        if (!ok && failures.length < 10) failures.push(`${c.label} ${c.method} ${c.path} → ${res.status} ${text.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    expect(failures).toEqual([]);
    expect(seenPaths.size).toBeGreaterThan(routes.length);
    for (const route of routes) expect(seenPaths.has(`/v2/${route.name}`), route.name).toBe(true);

    // Still serving, nothing stored, nothing polluted, no unexpected failure logged.
    expect((await h.call('apis.getApi', { apiId })).status).toBe(200);
    expect(await snapshot()).toEqual(before);
    // The comparison sees a change: one valid write differs.
    await h.createIdentity({ externalId: 'after-fuzz' });
    expect(await snapshot()).not.toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(h.logs()).not.toContain('"level":50');
  }, 120_000);
});
