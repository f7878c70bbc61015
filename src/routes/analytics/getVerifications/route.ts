import { QueriesBusyError } from '../../../analytics/query-thread.js';
import { QueryError, type QueryErrorKind } from '../../../analytics/sql/errors.js';
import type { Principal } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import type { ErrorCode } from '../../../errors/codes.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';

/** Unkey's code for each reason a query is refused. */
const CODES: Readonly<Record<QueryErrorKind, ErrorCode>> = {
  query: 'err:user:bad_request:invalid_analytics_query',
  query_type: 'err:user:bad_request:invalid_analytics_query_type',
  table: 'err:user:bad_request:invalid_analytics_table',
  function: 'err:user:bad_request:invalid_analytics_function',
  retention: 'err:user:bad_request:query_range_exceeds_retention',
  rows_limit: 'err:user:unprocessable_entity:query_rows_limit_exceeded',
  memory_limit: 'err:user:unprocessable_entity:query_memory_limit_exceeded',
  timeout: 'err:user:unprocessable_entity:query_execution_timeout',
};

const WILDCARD = 'api.*.read_analytics';
const SCOPED = /^api\.([A-Za-z0-9_-]+)\.read_analytics$/;

/**
 * The APIs the root key may read analytics of: null for all (the literal `api.*.read_analytics`),
 * else those named by `api.<apiId>.read_analytics` grants; none is the 403 (forbidden). As in Unkey,
 * scoped grants filter the rows rather than fail the query.
 */
function analyticsScope(principal: Principal): string[] | null {
  if (principal.permissions.has(WILDCARD)) return null;
  const apiIds = [...principal.permissions].map((p) => SCOPED.exec(p)?.[1]).filter((id): id is string => id !== undefined);
  if (apiIds.length === 0) throw new ApiError('err:keygate:authorization:forbidden', `Missing permission: '${WILDCARD}' (or 'api.<apiId>.read_analytics').`);
  return apiIds;
}

const requestSchema = {
  // Extra properties are tolerated, as Unkey does.
  type: 'object',
  required: ['query'],
  properties: { query: { type: 'string', minLength: 1 } },
} as const;
type Input = RequestOf<typeof requestSchema>;

const responseSchema = {
  type: 'array',
  description: 'One object per result row: column name → value (times as unix ms, NaN and Infinity as null).',
  items: { type: 'object', additionalProperties: true },
} as const;

export const analyticsGetVerifications = defineRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'analytics.getVerifications',
  requestSchema,
  responseSchema,
  async handle({ input, principal, services }) {
    // Checked before the query is read: a 403 says nothing about the query or the data.
    const apiIds = analyticsScope(principal);
    try {
      // Held rollup sums and buffered records are written first: the answer counts every
      // verification this process made before the query.
      await services.recorder.flush();
      return await services.analytics.run(input.query, { workspaceId: principal.workspaceId, apiIds }, services.now());
    } catch (err) {
      if (err instanceof QueryError) throw new ApiError(CODES[err.kind], err.detail);
      if (err instanceof QueriesBusyError) throw new ApiError('err:user:too_many_requests:query_quota_exceeded', err.message);
      throw err;
    }
  },
});
