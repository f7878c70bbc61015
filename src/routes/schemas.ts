/**
 * Schema fragments shared by several procedures, with the constraints of Unkey's OpenAPI
 * document (lengths, patterns, ranges).
 */
import type { RequestOf } from './define.js';

export const EXTERNAL_ID = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9_.-]+$' } as const;
export const API_ID = { type: 'string', minLength: 3, maxLength: 255, pattern: '^[a-zA-Z0-9_]+$' } as const;
/** apis.getApi and apis.deleteApi take an API id of at least 8 characters, as Unkey does (elsewhere 3). */
export const API_ID_OF_API = { ...API_ID, minLength: 8 } as const;
export const PERMISSION_SLUG = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[a-zA-Z0-9_:\\-\\.\\*]+$' } as const;
/** Unix ms; Unkey caps expiry at the year 2100. */
export const TIMESTAMP_MS = { type: 'integer', minimum: 0, maximum: 4102444800000 } as const;
/** JSON object metadata, returned verbatim on verification. */
export const META = { type: 'object', maxProperties: 100 } as const;
/** Largest integer that survives a JSON round trip exactly. */
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A named limit on a key or identity (Unkey's RatelimitRequest: extra properties tolerated).
 * `autoApply` may be left out and means `false`: Unkey documents that default but its schema
 * demands the field; raw HTTP clients send definitions without it.
 */
export const RATELIMIT_REQUEST = {
  type: 'object',
  required: ['name', 'limit', 'duration'],
  properties: {
    name: { type: 'string', minLength: 3, maxLength: 128 },
    limit: { type: 'integer', minimum: 1, maximum: MAX_SAFE },
    duration: { type: 'integer', minimum: 1000, maximum: MAX_SAFE },
    autoApply: { type: 'boolean', default: false },
  },
} as const;

export type RatelimitRequest = RequestOf<typeof RATELIMIT_REQUEST>;
