/**
 * The error catalogue: every code keygate can answer with, its HTTP status, title and the path of
 * its `error.type` URL (`{DOCS_URL}/errors/<path>`). The only file that knows status numbers.
 *
 * Paths follow Unkey's catalogue (`err:unkey:data:api_not_found` → `unkey/data/api_not_found`)
 * except for keygate's own root-key and availability errors (unauthorized, forbidden,
 * service_unavailable).
 */
interface CodeInfo {
  readonly status: number;
  readonly title: string;
  readonly path: string;
}

const fromUrn = (urn: string): string => urn.split(':').slice(1).join('/');

function code(status: number, title: string, urn: string, path = fromUrn(urn)): CodeInfo {
  return { status, title, path };
}

export const errorCodes = {
  // Request faults (400 family). These bodies always carry `errors[]`.
  'err:unkey:application:invalid_input': code(400, 'Bad Request', 'err:unkey:application:invalid_input'),
  'err:user:bad_request:request_body_unreadable': code(400, 'Bad Request', 'err:user:bad_request:request_body_unreadable'),
  'err:user:bad_request:permissions_query_syntax_error': code(400, 'Bad Request', 'err:user:bad_request:permissions_query_syntax_error'),
  'err:unkey:authentication:malformed': code(400, 'Bad Request', 'err:unkey:authentication:malformed'),
  // analytics.getVerifications: why a query is refused (400) or was stopped (422).
  'err:user:bad_request:invalid_analytics_query': code(400, 'Bad Request', 'err:user:bad_request:invalid_analytics_query'),
  'err:user:bad_request:invalid_analytics_query_type': code(400, 'Bad Request', 'err:user:bad_request:invalid_analytics_query_type'),
  'err:user:bad_request:invalid_analytics_table': code(400, 'Bad Request', 'err:user:bad_request:invalid_analytics_table'),
  'err:user:bad_request:invalid_analytics_function': code(400, 'Bad Request', 'err:user:bad_request:invalid_analytics_function'),
  'err:user:bad_request:query_range_exceeds_retention': code(400, 'Bad Request', 'err:user:bad_request:query_range_exceeds_retention'),
  'err:user:unprocessable_entity:query_rows_limit_exceeded': code(422, 'Unprocessable Entity', 'err:user:unprocessable_entity:query_rows_limit_exceeded'),
  'err:user:unprocessable_entity:query_memory_limit_exceeded': code(422, 'Unprocessable Entity', 'err:user:unprocessable_entity:query_memory_limit_exceeded'),
  'err:user:unprocessable_entity:query_execution_timeout': code(422, 'Unprocessable Entity', 'err:user:unprocessable_entity:query_execution_timeout'),
  'err:user:too_many_requests:query_quota_exceeded': code(429, 'Too Many Requests', 'err:user:too_many_requests:query_quota_exceeded'),
  'err:user:bad_request:request_header_fields_too_large': code(431, 'Request Header Fields Too Large', 'err:user:bad_request:request_header_fields_too_large'),
  'err:user:bad_request:request_body_too_large': code(413, 'Request Entity Too Large', 'err:user:bad_request:request_body_too_large'),
  // Routing (keygate answers these with the envelope; Unkey answers plain text).
  'err:user:bad_request:procedure_not_found': code(404, 'Not Found', 'err:user:bad_request:procedure_not_found'),
  'err:user:bad_request:method_not_allowed': code(405, 'Method Not Allowed', 'err:user:bad_request:method_not_allowed'),
  // Root-key authentication and authorization: keygate's own types.
  'err:keygate:authentication:unauthorized': code(401, 'Unauthorized', '', 'unauthorized'),
  'err:keygate:authorization:forbidden': code(403, 'Forbidden', '', 'forbidden'),
  'err:keygate:authentication:too_many_failures': code(429, 'Too Many Requests', 'err:user:too_many_requests:authentication_failures'),
  // Resources.
  'err:unkey:data:api_not_found': code(404, 'Not Found', 'err:unkey:data:api_not_found'),
  'err:unkey:data:key_not_found': code(404, 'Not Found', 'err:unkey:data:key_not_found'),
  'err:unkey:data:identity_not_found': code(404, 'Not Found', 'err:unkey:data:identity_not_found'),
  'err:unkey:data:migration_not_found': code(404, 'Not Found', 'err:unkey:data:migration_not_found'),
  'err:unkey:data:role_not_found': code(404, 'Not Found', 'err:unkey:data:role_not_found'),
  'err:unkey:data:permission_not_found': code(404, 'Not Found', 'err:unkey:data:permission_not_found'),
  'err:unkey:data:ratelimit_namespace_not_found': code(404, 'Not Found', 'err:unkey:data:ratelimit_namespace_not_found'),
  'err:unkey:data:ratelimit_override_not_found': code(404, 'Not Found', 'err:unkey:data:ratelimit_override_not_found'),
  'err:keygate:data:root_key_not_found': code(404, 'Not Found', 'err:keygate:data:root_key_not_found'),
  'err:unkey:data:identity_already_exists': code(409, 'Conflicting Resource', 'err:unkey:data:identity_already_exists'),
  'err:unkey:data:permission_already_exists': code(409, 'Conflicting Resource', 'err:unkey:data:permission_already_exists'),
  'err:unkey:data:role_already_exists': code(409, 'Conflicting Resource', 'err:unkey:data:role_already_exists'),
  'err:unkey:data:ratelimit_namespace_gone': code(410, 'Resource Gone', 'err:unkey:data:ratelimit_namespace_gone'),
  'err:unkey:application:precondition_failed': code(412, 'Precondition Failed', 'err:unkey:application:precondition_failed'),
  // Faults.
  'err:unkey:application:unexpected_error': code(500, 'Internal Server Error', 'err:unkey:application:unexpected_error'),
  'err:svc:application:service_unavailable': code(503, 'Service Unavailable', 'err:svc:application:service_unavailable'),
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof errorCodes;

export function codeInfo(code: ErrorCode): CodeInfo {
  return errorCodes[code];
}

/** One text for every 503, whatever failed: the cause stays in the logs. */
export const SERVICE_UNAVAILABLE_DETAIL = 'The service is temporarily unavailable, try again later.';
