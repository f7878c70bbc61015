/**
 * Unkey answers service_unavailable with HTTP 500; keygate answers what a load balancer and a
 * retrying client expect instead: 503, `{docs_url}/errors/svc/application/service_unavailable`, a fixed
 * detail. The mapping every route goes through is checked here; test/distributed/redis-down.test.ts
 * sees it over HTTP with Redis stopped.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, ServiceUnavailableError } from '../../src/errors/api-error.js';
import { SERVICE_UNAVAILABLE_DETAIL } from '../../src/errors/codes.js';
import { errorReply, toApiError } from '../../src/server/reply.js';

const DOCS = 'https://docs.example';

describe('error mapping', () => {
  it('an unavailable backend is a 503 with the fixed detail, never the backend message', () => {
    const err = toApiError(new ServiceUnavailableError('redis: connection refused to 10.0.0.7:6379'));
    expect(err.code).toBe('err:svc:application:service_unavailable');
    const reply = errorReply('req_1', 'application/json', DOCS, err);
    expect(reply.status).toBe(503);
    expect(reply.contentType).toBe('application/json');
    expect(JSON.parse(reply.body)).toEqual({
      meta: { requestId: 'req_1' },
      error: {
        title: 'Service Unavailable', status: 503, detail: SERVICE_UNAVAILABLE_DETAIL,
        type: `${DOCS}/errors/svc/application/service_unavailable`,
      },
    });
    expect(SERVICE_UNAVAILABLE_DETAIL).toMatch(/temporarily unavailable.*try again later/i);
    expect(reply.body).not.toContain('10.0.0.7');
  });

  it('any other failure stays a 500 unexpected_error; ApiErrors keep their code', () => {
    expect(toApiError(new Error('boom')).code).toBe('err:unkey:application:unexpected_error');
    const notFound = new ApiError('err:unkey:data:key_not_found', 'The specified key was not found.');
    expect(toApiError(notFound)).toBe(notFound);
    expect(errorReply('req_2', 'application/problem+json', DOCS, toApiError(new Error('boom'))).status).toBe(500);
  });
});
