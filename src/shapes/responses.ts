/**
 * JSON Schemas of the answers several procedures share (the `data` of a 200): Unkey's
 * KeyResponseData, Identity, Permission, Role, … (the shapes of Unkey's v2 API), as keygate
 * answers them. Closed (`additionalProperties: false`) wherever keygate's answer is, so a field
 * keygate starts sending must be described first: test/openapi/responses.test.ts validates real
 * answers of every procedure against these. src/openapi/ publishes each shape once, under the
 * name in RESPONSE_COMPONENTS, wherever a procedure's schema uses that very object.
 */

/** Unix epoch milliseconds, as every timestamp in the API. */
const TIME_MS = { type: 'integer', minimum: 0, description: 'Unix epoch milliseconds.' } as const;
/** Arbitrary JSON object stored with a key or identity and returned as it was given. */
const META = { type: 'object', description: 'Arbitrary JSON object, returned as stored.' } as const;
const STRINGS = { type: 'array', items: { type: 'string' } } as const;

/** `{}`: the answer of procedures that only change something (deleteKey, updateKey, …). */
export const EMPTY_DATA = { type: 'object', additionalProperties: false, properties: {} } as const;

/** A configured limit of a key or identity; every field is always present. */
/** An id and a name: apis.getApi's data, and one item of apis.listApis and ratelimit.listNamespaces. */
export const ID_AND_NAME = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name'],
  properties: { id: { type: 'string' }, name: { type: 'string' } },
} as const;

export const RATELIMIT_RESPONSE = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'limit', 'duration', 'autoApply'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    limit: { type: 'integer', minimum: 1 },
    duration: { type: 'integer', minimum: 1000, description: 'Window length in milliseconds.' },
    autoApply: { type: 'boolean' },
  },
} as const;

/** `meta` and `ratelimits` are left out when empty. */
export const IDENTITY = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'externalId'],
  properties: {
    id: { type: 'string' },
    externalId: { type: 'string' },
    meta: META,
    ratelimits: { type: 'array', items: RATELIMIT_RESPONSE },
  },
} as const;

/** `refillDay` only for monthly refills. */
export const KEY_CREDITS_REFILL = {
  type: 'object',
  additionalProperties: false,
  required: ['interval', 'amount'],
  properties: {
    interval: { type: 'string', enum: ['daily', 'monthly'] },
    amount: { type: 'integer', minimum: 1, description: 'What `remaining` is reset to at each refill.' },
    refillDay: { type: 'integer', minimum: 1, maximum: 31 },
  },
} as const;

/** A key's credits; keys with unlimited credits have none (the field is left out). */
export const KEY_CREDITS = {
  type: 'object',
  additionalProperties: false,
  required: ['remaining'],
  properties: { remaining: { type: 'integer', minimum: 0 }, refill: KEY_CREDITS_REFILL },
} as const;

/**
 * A key as getKey, whoami and listKeys describe it. Empty values are left out; `permissions` is
 * the effective set (direct and through roles). Never a `plaintext`: no key is recoverable.
 */
export const KEY_RESPONSE_DATA = {
  type: 'object',
  additionalProperties: false,
  required: ['keyId', 'start', 'enabled', 'createdAt'],
  properties: {
    keyId: { type: 'string' },
    start: { type: 'string', description: 'Non-secret start of the key, for display; empty for a migrated key never verified.' },
    enabled: { type: 'boolean' },
    name: { type: 'string' },
    meta: META,
    createdAt: TIME_MS,
    updatedAt: TIME_MS,
    expires: TIME_MS,
    permissions: STRINGS,
    roles: STRINGS,
    credits: KEY_CREDITS,
    identity: IDENTITY,
    ratelimits: { type: 'array', items: RATELIMIT_RESPONSE },
  },
} as const;

export const PERMISSION = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'slug'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' }, description: { type: 'string' } },
} as const;

/** `permissions` is left out when the role has none. */
export const ROLE = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    permissions: { type: 'array', items: PERMISSION },
  },
} as const;

/** The answers of the key RBAC procedures and setRolePermissions. */
export const PERMISSION_LIST = { type: 'array', items: PERMISSION } as const;
export const ROLE_LIST = { type: 'array', items: ROLE } as const;

export const RATELIMIT_OVERRIDE = {
  type: 'object',
  additionalProperties: false,
  required: ['overrideId', 'identifier', 'limit', 'duration'],
  properties: {
    overrideId: { type: 'string' },
    identifier: { type: 'string', description: 'An exact identifier, or a pattern where `*` is any run of characters.' },
    limit: { type: 'integer', minimum: 0 },
    duration: { type: 'integer', minimum: 1000 },
  },
} as const;

/** createKey and rerollKey: the plaintext is shown this once and never stored. */
export const NEW_KEY = {
  type: 'object',
  additionalProperties: false,
  required: ['keyId', 'key'],
  properties: { keyId: { type: 'string' }, key: { type: 'string', description: 'The key itself; keygate keeps only its hash.' } },
} as const;

/** The shapes the OpenAPI document names (components/schemas), by the names Unkey uses. */
export const RESPONSE_COMPONENTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  EmptyResponse: EMPTY_DATA,
  RatelimitResponse: RATELIMIT_RESPONSE,
  Identity: IDENTITY,
  KeyCreditsRefill: KEY_CREDITS_REFILL,
  KeyCreditsData: KEY_CREDITS,
  KeyResponseData: KEY_RESPONSE_DATA,
  Permission: PERMISSION,
  Role: ROLE,
  RatelimitOverride: RATELIMIT_OVERRIDE,
  NewKey: NEW_KEY,
};
