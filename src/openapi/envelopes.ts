/**
 * JSON Schemas of the envelope around every answer (server/reply.ts): `{meta, data}` on success,
 * `{meta, data, pagination}` for lists, `{meta}` where a success has no data, and
 * `{meta, error}` for every error, with `error.errors` on 400 and 413 answers.
 */
export type Schema = Readonly<Record<string, unknown>>;

export const META = {
  type: 'object',
  additionalProperties: false,
  required: ['requestId'],
  properties: { requestId: { type: 'string', description: 'Also sent as the `x-request-id` header; quote it when reporting a problem.' } },
} as const;

export const PAGINATION = {
  type: 'object',
  additionalProperties: false,
  required: ['hasMore'],
  properties: {
    cursor: { type: 'string', description: 'Send as `cursor` to get the next page; left out on the last page.' },
    hasMore: { type: 'boolean' },
  },
} as const;

export const VALIDATION_ERROR = {
  type: 'object',
  additionalProperties: false,
  required: ['location', 'message'],
  properties: {
    location: { type: 'string', description: 'JSON-Schema keyword location (`/properties/name/minLength`), or the part of the request at fault.' },
    message: { type: 'string' },
    fix: { type: 'string' },
  },
} as const;

const errorProperties = {
  title: { type: 'string', description: 'Short label of the status, e.g. `Not Found`.' },
  detail: { type: 'string', description: 'What went wrong with this request, for people.' },
  status: { type: 'integer', description: 'The HTTP status again.' },
  type: { type: 'string', description: 'The error\'s URL, `{DOCS_URL}/errors/<path>`: stable, match on it.' },
} as const;

export const BASE_ERROR = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'detail', 'status', 'type'],
  properties: errorProperties,
} as const;

export const BAD_REQUEST_ERROR = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'detail', 'status', 'type', 'errors'],
  properties: { ...errorProperties, errors: { type: 'array', items: VALIDATION_ERROR } },
} as const;

export const ERROR_RESPONSE = {
  type: 'object',
  additionalProperties: false,
  required: ['meta', 'error'],
  properties: { meta: META, error: BASE_ERROR },
} as const;

export const BAD_REQUEST_ERROR_RESPONSE = {
  type: 'object',
  additionalProperties: false,
  required: ['meta', 'error'],
  properties: { meta: META, error: BAD_REQUEST_ERROR },
} as const;

/** Statuses whose error body carries `errors[]` (server/reply.ts). */
export const hasIssues = (status: number): boolean => status === 400 || status === 413;

/**
 * The body of a 200: `data` is `dataSchema`, or an array of it with `pagination` beside it for
 * list procedures; a procedure with no data (`null`) answers `{meta}` alone.
 */
export function successBody(dataSchema: Schema | null, list: boolean): Schema {
  if (dataSchema === null) {
    return { type: 'object', additionalProperties: false, required: ['meta'], properties: { meta: META } };
  }
  if (list) {
    return {
      type: 'object',
      additionalProperties: false,
      required: ['meta', 'data', 'pagination'],
      properties: { meta: META, data: { type: 'array', items: dataSchema }, pagination: PAGINATION },
    };
  }
  return { type: 'object', additionalProperties: false, required: ['meta', 'data'], properties: { meta: META, data: dataSchema } };
}

/** Named once in the document (components/schemas) and referenced wherever used. */
export const ENVELOPE_COMPONENTS: Readonly<Record<string, Schema>> = {
  Meta: META,
  Pagination: PAGINATION,
  ValidationError: VALIDATION_ERROR,
  BaseError: BASE_ERROR,
  BadRequestErrorDetails: BAD_REQUEST_ERROR,
  ErrorResponse: ERROR_RESPONSE,
  BadRequestErrorResponse: BAD_REQUEST_ERROR_RESPONSE,
};
