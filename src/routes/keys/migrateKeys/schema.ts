import type { RequestOf } from '../../define.js';
import { API_ID, EXTERNAL_ID, META, PERMISSION_SLUG, RATELIMIT_REQUEST, TIMESTAMP_MS } from '../../schemas.js';
import { CREDITS_REQUEST } from '../createKey/schema.js';

const MIGRATED_KEY = {
  type: 'object',
  additionalProperties: false,
  required: ['hash'],
  properties: {
    // The key's hash in the source system's scheme (checked against the migration's algorithm).
    hash: { type: 'string', minLength: 3, maxLength: 512 },
    name: { type: 'string', minLength: 1, maxLength: 255 },
    externalId: EXTERNAL_ID,
    meta: META,
    roles: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 128 } },
    permissions: { type: 'array', maxItems: 1000, items: PERMISSION_SLUG },
    expires: TIMESTAMP_MS,
    enabled: { type: 'boolean', default: true },
    credits: CREDITS_REQUEST,
    ratelimits: { type: 'array', maxItems: 50, items: RATELIMIT_REQUEST },
  },
} as const;

export const migrateKeysSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['migrationId', 'apiId', 'keys'],
  properties: {
    migrationId: { type: 'string', minLength: 3, maxLength: 255 },
    apiId: API_ID,
    // No item limit beyond the body size limit, as in Unkey.
    keys: { type: 'array', minItems: 1, items: MIGRATED_KEY },
  },
} as const;

export type MigrateKeysInput = RequestOf<typeof migrateKeysSchema>;
export type MigratedKeyInput = MigrateKeysInput['keys'][number];
