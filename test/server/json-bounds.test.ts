/**
 * Free-form JSON is bounded: a body nested too deeply, or a `meta` too large, is a 400 naming the
 * limit on every procedure, never a 500, and the server goes on answering.
 */
import { describe, expect, test } from 'vitest';
import { routes } from '../../src/routes/index.js';
import { MAX_JSON_DEPTH, MAX_META_BYTES } from '../../src/validation/json-bounds.js';
import { expectError } from '../support/auth-cases.js';
import { useHarness } from '../support/harness.js';
import { createMigration, foreignKey } from '../support/migrations.js';

/** `{"a":{"a":…{}…}}` nested `levels` objects deep (the outermost counts as one). */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** JSON text of `[[…[]…]]`, `levels` arrays deep, built as text (JSON.stringify would recurse). */
const deepArrays = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('bounded JSON', () => {
  const h = useHarness();

  test('createKey with meta nested 1,500 deep is a 400 naming the limit, and nothing is created', async () => {
    const apiId = await h.createApi();
    const raw = `{"apiId":"${apiId}","meta":${'{"a":'.repeat(1500)}{}${'}'.repeat(1500)}}`;
    const res = await h.call('keys.createKey', undefined, { raw });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toContain(`at most ${MAX_JSON_DEPTH} levels`);
    expect((await h.call('apis.listKeys', { apiId })).body.data).toEqual([]);
  });

  test('a body exactly at the depth limit is accepted; one level more is refused', async () => {
    const apiId = await h.createApi();
    // The body is one level, meta the rest.
    const fits = await h.call('keys.createKey', { apiId, meta: nested(MAX_JSON_DEPTH - 1) });
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    expect((await h.verify(fits.body.data.key)).body.data.meta).toEqual(nested(MAX_JSON_DEPTH - 1));
    const over = await h.call('keys.createKey', { apiId, meta: nested(MAX_JSON_DEPTH) });
    expectError(over, 400, 'unkey/application/invalid_input');
    // Brackets inside strings do not count.
    const inString = await h.call('keys.createKey', { apiId, meta: { text: '['.repeat(5_000) } });
    expect(inString.status).toBe(200);
  });

  test('every procedure answers a deeply nested body with the 400, and the server stays up', async () => {
    const deep = deepArrays(20_000);
    for (const route of routes) {
      for (const raw of [`{"x":${deep}}`, `{"meta":${deep}}`, deep]) {
        const res = await h.call(route.name, undefined, { raw });
        expect(res.status, `${route.name}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(400);
        expect(res.body.error.detail).toContain(`at most ${MAX_JSON_DEPTH} levels`);
      }
    }
    expect((await h.call('apis.listApis', {})).status).toBe(200);
  });

  describe('meta is at most 64 KiB as JSON', () => {
    /** A meta object whose JSON is exactly `bytes` long. */
    const metaOf = (bytes: number) => ({ text: 'x'.repeat(bytes - '{"text":""}'.length) });

    test('createKey, updateKey, createIdentity, updateIdentity, migrateKeys: at the limit accepted, one byte over refused', async () => {
      const apiId = await h.createApi();
      const migrationId = await createMigration(h, 'sha256');
      const { keyId } = await h.createKey({ apiId });
      const identityId = await h.createIdentity({ externalId: 'meta-size' });
      const bodies: [string, (meta: unknown) => unknown, string][] = [
        ['keys.createKey', (meta) => ({ apiId, meta }), 'meta'],
        ['keys.updateKey', (meta) => ({ keyId, meta }), 'meta'],
        ['identities.createIdentity', (meta) => ({ externalId: `meta-${Math.random().toString(36).slice(2)}`, meta }), 'meta'],
        ['identities.updateIdentity', (meta) => ({ identity: identityId, meta }), 'meta'],
        ['keys.migrateKeys', (meta) => ({ migrationId, apiId, keys: [{ hash: foreignKey().base64, meta }] }), 'keys[0].meta'],
      ];
      for (const [procedure, body, field] of bodies) {
        const fits = await h.call(procedure, body(metaOf(MAX_META_BYTES)));
        expect(fits.status, `${procedure}: ${JSON.stringify(fits.body).slice(0, 300)}`).toBe(200);
        const over = await h.call(procedure, body(metaOf(MAX_META_BYTES + 1)));
        expectError(over, 400, 'unkey/application/invalid_input');
        expect(over.body.error.errors[0].message).toBe(`${field} must be at most ${MAX_META_BYTES} bytes as JSON (got ${MAX_META_BYTES + 1})`);
      }
    });
  });
});
