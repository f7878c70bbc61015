import { EXTERNAL_ID, MAX_SAFE, META, PERMISSION_SLUG, RATELIMIT_REQUEST, TIMESTAMP_MS, type RatelimitRequest } from '../../schemas.js';
import { KEY_ID } from '../live-key.js';

/**
 * Three states per field, as in Unkey: omitted = keep, null = clear, value = set. `ratelimits`,
 * `enabled`, `roles` and `permissions` are not nullable (Unkey's schema rejects null for them).
 */
const nullable = <S extends { type: string }>(schema: S) => ({ ...schema, type: [schema.type, 'null'] });

export const updateKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['keyId'],
  properties: {
    keyId: KEY_ID,
    name: nullable({ type: 'string', minLength: 1, maxLength: 255 }),
    externalId: nullable(EXTERNAL_ID),
    meta: nullable(META),
    expires: nullable(TIMESTAMP_MS),
    credits: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        remaining: { type: ['integer', 'null'], minimum: 0, maximum: MAX_SAFE },
        refill: {
          type: ['object', 'null'],
          additionalProperties: false,
          required: ['interval', 'amount'],
          properties: {
            interval: { type: 'string', enum: ['daily', 'monthly'] },
            amount: { type: 'integer', minimum: 1, maximum: MAX_SAFE },
            refillDay: { type: 'integer', minimum: 1, maximum: 31 },
          },
        },
      },
    },
    ratelimits: { type: 'array', maxItems: 50, items: RATELIMIT_REQUEST },
    enabled: { type: 'boolean' },
    roles: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 128 } },
    permissions: { type: 'array', maxItems: 1000, items: PERMISSION_SLUG },
  },
} as const;

export interface RefillRequest { interval: 'daily' | 'monthly'; amount: number; refillDay?: number }

export interface CreditsUpdate {
  remaining?: number | null;
  refill?: RefillRequest | null;
}

export interface UpdateKeyInput {
  keyId: string;
  name?: string | null;
  externalId?: string | null;
  meta?: Record<string, unknown> | null;
  expires?: number | null;
  credits?: CreditsUpdate | null;
  ratelimits?: RatelimitRequest[];
  enabled?: boolean;
  roles?: string[];
  permissions?: string[];
}
