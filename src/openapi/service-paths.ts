/**
 * The paths that are not procedures (server/app.ts): the health probes and this document. None
 * needs a root key.
 */
import type { ComponentNames } from './components.js';
import { successBody } from './envelopes.js';

export const OPENAPI_PATH = '/openapi.json';

/** In the distributed mode the probes also name Redis. */
const LIVENESS_DATA = {
  type: 'object',
  additionalProperties: false,
  required: ['message'],
  properties: { message: { type: 'string' }, redis: { type: 'string', enum: ['reachable', 'unreachable'] } },
} as const;

const READINESS_DATA = {
  type: 'object',
  additionalProperties: false,
  required: ['ready'],
  properties: { ready: { const: true }, redis: { const: 'reachable' } },
} as const;

export function servicePaths(names: ComponentNames, headers: Readonly<Record<string, unknown>>, unavailable: Readonly<Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const ok = (description: string, schema: unknown) => ({ description, headers, content: { 'application/json': { schema } } });
  const liveness = (operationId: string) => ({
    operationId,
    tags: ['service'],
    summary: 'Is the process alive?',
    security: [],
    responses: { 200: ok('Always, while the process runs, whatever its dependencies do.', names.referNested(successBody(LIVENESS_DATA, false))) },
  });
  return {
    '/v2/liveness': { get: liveness('getLiveness'), post: liveness('postLiveness') },
    '/v2/readiness': {
      get: {
        operationId: 'getReadiness',
        tags: ['service'],
        summary: 'May a load balancer send traffic? 503 while a dependency (Redis) does not answer.',
        security: [],
        responses: { 200: ok('Every dependency answers.', names.referNested(successBody(READINESS_DATA, false))), ...unavailable },
      },
    },
    [OPENAPI_PATH]: {
      get: {
        operationId: 'getOpenApi',
        tags: ['service'],
        summary: 'This document.',
        security: [],
        responses: { 200: ok('The OpenAPI 3.1 document.', { type: 'object' }) },
      },
    },
  };
}
