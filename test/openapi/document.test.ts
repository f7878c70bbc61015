/**
 * The OpenAPI document: valid OpenAPI 3.1, exactly the procedures keygate registers, served as
 * built, and written to docs/openapi.json as built. That its response schemas are true is
 * responses.test.ts's job.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { codeInfo } from '../../src/errors/codes.js';
import { buildOpenApiDocument, responseSchemaOf, type OpenApiDocument } from '../../src/openapi/document.js';
import { DOCUMENT_FILE, documentText } from '../../src/openapi/file.js';
import { PROCEDURE_ERRORS, TRANSPORT_ERRORS } from '../../src/openapi/procedure-errors.js';
import { routes } from '../../src/routes/index.js';
import { callKeygate, useHarness } from '../support/harness.js';
import { newAjv, validateDocument } from './conformance.js';

/** Paths served besides the procedures, with their methods (server/app.ts). */
const SERVICE_PATHS: Record<string, string[]> = {
  '/v2/liveness': ['get', 'post'],
  '/v2/readiness': ['get'],
  '/openapi.json': ['get'],
};

const DOCS_URL = 'https://docs.example.test';
const doc = buildOpenApiDocument(routes, { docsUrl: DOCS_URL });
const operations = (d: OpenApiDocument) => Object.entries(d.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));

describe('the OpenAPI document', () => {
  const h = useHarness({ docsUrl: DOCS_URL });

  test('is valid OpenAPI 3.1 for the validator', async () => {
    const result = await validateDocument(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(result.version).toBe('3.1');
  });

  test('the validator refuses a broken copy (so its yes means something)', async () => {
    const broken = structuredClone(doc) as any;
    delete broken.paths['/v2/apis.getApi'].post.responses['200'].description;
    expect((await validateDocument(broken)).valid).toBe(false);
  });

  test('every schema in it compiles as strict JSON Schema 2020-12', async () => {
    const { resolved } = await validateDocument(doc);
    const ajv = newAjv();
    for (const [path, item] of Object.entries<any>(resolved.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const schemas = [op.requestBody?.content['application/json'].schema, ...Object.values<any>(op.responses)
          .flatMap((r) => Object.values<any>(r.content ?? {}).map((c) => c.schema))].filter((s) => s !== undefined);
        for (const schema of schemas) expect(() => ajv.compile(schema), `${method} ${path}`).not.toThrow();
      }
    }
  });

  test('has every registered procedure as POST /v2/<name>, the service paths, and nothing else', () => {
    const expected = [
      ...Object.entries(SERVICE_PATHS).flatMap(([path, methods]) => methods.map((m) => `${m} ${path}`)),
      ...routes.map((r) => `post /v2/${r.name}`),
    ];
    expect(operations(doc).sort()).toEqual(expected.sort());
    for (const route of routes) {
      const op = doc.paths[`/v2/${route.name}`]!.post as any;
      expect(op.operationId).toBe(route.name);
      expect(op.requestBody.content['application/json'].schema).toBeDefined();
    }
  });

  test('every procedure declares its response schema and its error codes', () => {
    expect(routes.filter((r) => responseSchemaOf(r) === undefined).map((r) => r.name), 'routes without a responseSchema').toEqual([]);
    expect(routes.filter((r) => PROCEDURE_ERRORS[r.name] === undefined).map((r) => r.name), 'routes missing in src/openapi/procedure-errors.ts').toEqual([]);
    const names = new Set(routes.map((r) => r.name));
    expect(Object.keys(PROCEDURE_ERRORS).filter((name) => !names.has(name)), 'procedure-errors.ts entries of no route').toEqual([]);
  });

  test('each procedure documents the statuses its route tests provoke, and has a test for each status of its own', () => {
    const transport = new Set(TRANSPORT_ERRORS.map((c) => String(codeInfo(c).status)));
    const gaps: string[] = [];
    for (const route of routes) {
      const [ns, procedure] = route.name.split('.') as [string, string];
      const dir = new URL(`../routes/${ns}/${procedure}/`, import.meta.url);
      const tested = existsSync(dir) ? readdirSync(dir).flatMap((f) => /^(\d{3})\.test\.ts$/.exec(f)?.[1] ?? []).filter((s) => s !== '200') : [];
      const documented = Object.keys((doc.paths[`/v2/${route.name}`]!.post as any).responses);
      for (const status of tested.filter((s) => !documented.includes(s))) gaps.push(`${route.name}: ${status}.test.ts exists, the document lacks ${status}`);
      const own = new Set((PROCEDURE_ERRORS[route.name] ?? []).map((c) => String(codeInfo(c).status)).filter((s) => !transport.has(s)));
      for (const status of [...own].filter((s) => !tested.includes(s))) gaps.push(`${route.name}: documents ${status}, test/routes/${ns}/${procedure}/${status}.test.ts is missing`);
    }
    expect(gaps).toEqual([]);
  });

  test('names the error types of this server\'s DOCS_URL', () => {
    const text = JSON.stringify(doc);
    expect(text).toContain(`${DOCS_URL}/errors/unkey/data/key_not_found`);
    expect(text).not.toContain('https://unkey.com/docs/errors/');
  });

  test('GET /openapi.json serves the document as built, without a root key', async () => {
    const res = await callKeygate(h.url, '/openapi.json', undefined, { method: 'GET', rootKey: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  test('POST /openapi.json is a 405 that names GET', async () => {
    const res = await callKeygate(h.url, '/openapi.json', {}, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.body.error.type).toBe(`${DOCS_URL}/errors/user/bad_request/method_not_allowed`);
  });

  test('every operation in it is served: no 404 or 405 for any documented path and method', async () => {
    for (const op of operations(doc)) {
      const [method, path] = op.split(' ') as [string, string];
      const res = await callKeygate(h.url, path, {}, { method: method.toUpperCase() });
      expect([404, 405], `${op} → ${res.status}`).not.toContain(res.status);
    }
  });

  test('docs/openapi.json is the document as built (after a change: npm run openapi)', () => {
    expect(existsSync(DOCUMENT_FILE), 'docs/openapi.json is missing: run npm run openapi').toBe(true);
    expect(readFileSync(DOCUMENT_FILE, 'utf8') === documentText(), 'docs/openapi.json is stale: run npm run openapi').toBe(true);
  });
});
