import { hasAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { keyResponse, type KeyResponse } from '../../../keys/describe.js';
import { hashKey } from '../../../keys/format.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { liveKey } from '../live-key.js';
import { KEY_RESPONSE_DATA } from '../../../shapes/responses.js';

/** One detail for every miss, so the answer never tells a missing key from a forbidden one. */
const NOT_FOUND = 'The specified key was not found.';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key'],
  properties: { key: { type: 'string', minLength: 1, maxLength: 512 } },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const keysWhoami = defineRoute<Input, KeyResponse>({
  name: 'keys.whoami',
  // As getKey, with `permissions` sorted.
  responseSchema: KEY_RESPONSE_DATA,
  requestSchema,
  async handle({ input, principal, services }) {
    const { storage } = services;
    const found = await storage.keys.findByHash(hashKey(input.key));
    const key = await liveKey(services, principal, found, NOT_FOUND);
    // Masked as 404 like Unkey, not keygate's 403: the caller holds the plaintext, so a 403 would confirm the key exists.
    if (!hasAny(principal, ['api.*.read_key', `api.${key.apiId}.read_key`])) throw new ApiError('err:unkey:data:key_not_found', NOT_FOUND);
    const [identity, credits, rolePermissions] = await Promise.all([
      key.identityId === undefined ? null : storage.identities.get(key.identityId),
      key.hasCredits ? storage.keys.getCredits(key.id) : null,
      // `permissions` reports the effective set: direct slugs and those of the key's roles.
      storage.roles.slugsOfRoles(key.workspaceId, key.roles),
    ]);
    // Neither enabled nor expiry is evaluated: whoami describes the key, verification judges it.
    return keyResponse(key, identity, credits, { sortPermissions: true }, rolePermissions);
  },
});
