import type { RequestOf } from '../../define.js';
import { API_ID, EXTERNAL_ID, MAX_SAFE, META, PERMISSION_SLUG, RATELIMIT_REQUEST, TIMESTAMP_MS } from '../../schemas.js';

export const CREDITS_REQUEST = {
  type: 'object',
  additionalProperties: false,
  // `remaining` must be present; null means unlimited.
  required: ['remaining'],
  properties: {
    remaining: { type: ['integer', 'null'], minimum: 0, maximum: MAX_SAFE },
    refill: {
      type: 'object',
      additionalProperties: false,
      required: ['interval', 'amount'],
      properties: {
        interval: { type: 'string', enum: ['daily', 'monthly'] },
        amount: { type: 'integer', minimum: 1, maximum: MAX_SAFE },
        refillDay: { type: 'integer', minimum: 1, maximum: 31 },
      },
    },
  },
} as const;

export type CreditsRequest = RequestOf<typeof CREDITS_REQUEST>;

export const createKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiId'],
  properties: {
    apiId: API_ID,
    prefix: { type: 'string', minLength: 1, maxLength: 16, pattern: '^[a-zA-Z0-9_]+$' },
    name: { type: 'string', minLength: 1, maxLength: 255 },
    byteLength: { type: 'integer', minimum: 16, maximum: 255, default: 16 },
    externalId: EXTERNAL_ID,
    meta: META,
    roles: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 128 } },
    permissions: { type: 'array', maxItems: 1000, items: PERMISSION_SLUG },
    expires: TIMESTAMP_MS,
    credits: CREDITS_REQUEST,
    ratelimits: { type: 'array', maxItems: 50, items: RATELIMIT_REQUEST },
    enabled: { type: 'boolean', default: true },
    recoverable: { type: 'boolean', default: false },
  },
} as const;

export type CreateKeyInput = RequestOf<typeof createKeySchema>;
