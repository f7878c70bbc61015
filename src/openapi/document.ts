/**
 * The OpenAPI 3.1 document of everything keygate serves, built from what the procedures declare:
 * each route's request and response JSON Schemas, the error catalogue (src/errors/codes.ts) and
 * which codes each procedure can answer (procedure-errors.ts). Built once, at start-up or by
 * `npm run openapi`; nothing here runs per request.
 */
import { readFileSync } from 'node:fs';
import type { Route } from '../routes/define.js';
import { RESPONSE_COMPONENTS } from '../shapes/responses.js';
import { ComponentNames } from './components.js';
import { ENVELOPE_COMPONENTS, successBody, type Schema } from './envelopes.js';
import { ErrorResponses, REQUEST_ID_HEADER } from './error-responses.js';
import { PROCEDURE_ERRORS, TRANSPORT_ERRORS } from './procedure-errors.js';
import { servicePaths } from './service-paths.js';

export interface OpenApiOptions {
  /** Base of every `error.type` (Config.docsUrl), so the document names the types this server sends. */
  readonly docsUrl: string;
}

export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: Readonly<Record<string, unknown>>;
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}


/** The route's response schema; `undefined` when it has none (test/openapi/ fails on that). */
export function responseSchemaOf(route: Route): Schema | null | undefined {
  return route.responseSchema;
}

/** Published as `info.version`: keygate's own version (package.json sits two folders up from src/ and dist/ alike). */
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function operation(route: Route, names: ComponentNames, errors: ErrorResponses): Record<string, unknown> {
  const data = responseSchemaOf(route);
  // Not described yet: published as "any data" rather than left out; the tests refuse it.
  const described = data === undefined ? { description: 'Not described yet.' } : data;
  const list = route.list === true;
  return {
    operationId: route.name,
    tags: [route.name.split('.')[0]],
    requestBody: { required: true, content: { 'application/json': { schema: names.referNested(route.requestSchema) } } },
    responses: {
      200: {
        description: list ? 'One page; `pagination.cursor` asks for the next.' : data === null ? 'Done; the body has no `data`.' : 'Success.',
        headers: REQUEST_ID_HEADER,
        content: { 'application/json': { schema: names.referNested(successBody(described, list)) } },
      },
      ...errors.for([...TRANSPORT_ERRORS, ...(PROCEDURE_ERRORS[route.name] ?? [])]),
    },
  };
}

const description = (docsUrl: string): string => [
  'keygate creates and verifies API keys and enforces rate limits. It speaks the Unkey v2 RPC API:',
  'every procedure is `POST /v2/<namespace>.<procedure>` with a JSON body, authenticated with a root key,',
  'and answers `{meta, data}` (lists add `pagination`).',
  '',
  `Errors answer \`{meta, error}\`; \`error.type\` starts with \`${docsUrl}/errors/\`. Error bodies are`,
  '`application/problem+json` when the request\'s Accept header allows it (`application/problem+json`,',
  '`application/*` or `*/*`), else `application/json`; schema failures are always `application/json`.',
  'A known path asked with another method is a 405 with an `Allow` header; any other path is a 404.',
].join('\n');

export function buildOpenApiDocument(routes: readonly Route[], options: OpenApiOptions): OpenApiDocument {
  const names = new ComponentNames({ ...RESPONSE_COMPONENTS, ...ENVELOPE_COMPONENTS });
  const errors = new ErrorResponses(options.docsUrl);
  const paths = servicePaths(names, REQUEST_ID_HEADER, errors.for(['err:svc:application:service_unavailable']));
  for (const route of routes) paths[`/v2/${route.name}`] = { post: operation(route, names, errors) };
  const namespaces = [...new Set(routes.map((r) => r.name.split('.')[0]!))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'keygate',
      version: VERSION,
      description: description(options.docsUrl),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    tags: [{ name: 'service', description: 'Health probes and this document; no root key needed.' }, ...namespaces.map((name) => ({ name }))],
    security: [{ rootKey: [] }],
    paths,
    components: {
      securitySchemes: {
        rootKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A root key: `Authorization: Bearer <root key>`. Each procedure needs its own root-key permissions (docs/api.md, "What it serves").',
        },
      },
      headers: { RequestId: { description: 'The request\'s id, as in `meta.requestId`.', schema: { type: 'string' } } },
      responses: errors.components(),
      schemas: names.schemas(),
    },
  };
}
