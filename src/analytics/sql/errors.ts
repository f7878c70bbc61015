/**
 * Why an analytics query is refused: one kind per Unkey error code, with a detail
 * that names the construct. The route turns these into ApiErrors; nothing else here knows HTTP.
 */
export type QueryErrorKind =
  /** Syntax, unsupported clauses and constructs, structural limits: 400 invalid_analytics_query. */
  | 'query'
  /** Not a SELECT (INSERT, DROP, …): 400 invalid_analytics_query_type. */
  | 'query_type'
  /** A table other than the five public ones: 400 invalid_analytics_table. */
  | 'table'
  /** A function outside the supported set: 400 invalid_analytics_function. */
  | 'function'
  /** A time bound older than the look-back allows: 400 query_range_exceeds_retention. */
  | 'retention'
  /** More rows to read than allowed: 422 query_rows_limit_exceeded. */
  | 'rows_limit'
  /** Too many groups or rows held at once: 422 query_memory_limit_exceeded. */
  | 'memory_limit'
  /** Took longer than allowed: 422 query_execution_timeout. */
  | 'timeout';

export class QueryError extends Error {
  constructor(readonly kind: QueryErrorKind, readonly detail: string) {
    super(detail);
    this.name = 'QueryError';
  }
}

/** A construct keygate's SQL subset does not have: the detail names it. */
export const unsupported = (construct: string, hint = ''): QueryError =>
  new QueryError('query', `${construct} is not supported by keygate's analytics SQL${hint ? `: ${hint}` : ''}.`);

/** For messages: the tables a query may read. */
export const PUBLIC_TABLES = 'key_verifications_v1 or key_verifications_per_{minute,hour,day,month}_v1';
