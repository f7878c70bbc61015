import type { RequestOf } from '../../define.js';
import { EXTERNAL_ID, MAX_SAFE, META, PERMISSION_SLUG, RATELIMIT_REQUEST, TIMESTAMP_MS } from '../../schemas.js';
import { KEY_ID } from '../live-key.js';

/**
 * Three states per field, as in Unkey: omitted = keep, null = clear, value = set. `ratelimits`,
 * `enabled`, `roles` and `permissions` are not nullable (Unkey's schema rejects null for them).
 */
const nullable = <const S extends { readonly type: string }>(schema: S): Omit<S, 'type'> & { readonly type: readonly [S['type'], 'null'] } =>
  ({ ...schema, type: [schema.type, 'null'] as const });

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

export type UpdateKeyInput = RequestOf<typeof updateKeySchema>;
export type CreditsUpdate = NonNullable<UpdateKeyInput['credits']>;
export type RefillRequest = NonNullable<CreditsUpdate['refill']>;
