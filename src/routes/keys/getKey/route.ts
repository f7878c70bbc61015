import { requireAny } from '../../../auth/permissions.js';
import { keyResponse, type KeyResponse } from '../../../keys/describe.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { notRecoverable } from '../../../keys/recoverable.js';
import { findLiveKey, KEY_ID } from '../live-key.js';
import { KEY_RESPONSE_DATA } from '../../../shapes/responses.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['keyId'],
  properties: { keyId: KEY_ID, decrypt: { type: 'boolean', default: false } },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const keysGetKey = defineRoute<Input, KeyResponse>({
  name: 'keys.getKey',
  responseSchema: KEY_RESPONSE_DATA,
  requestSchema,
  async handle({ input, principal, services }) {
    const { storage } = services;
    // Looked up first: the acceptable tuples name the key's API (Unkey's order: 404 before 403).
    const key = await findLiveKey(services, principal, input.keyId);
    requireAny(principal, ['api.*.read_key', `api.${key.apiId}.read_key`]);
    if (input.decrypt) {
      requireAny(principal, ['api.*.decrypt_key', `api.${key.apiId}.decrypt_key`]);
      throw notRecoverable();
    }
    const [identity, credits, rolePermissions] = await Promise.all([
      key.identityId === undefined ? null : storage.identities.get(key.identityId),
      key.hasCredits ? storage.keys.getCredits(key.id) : null,
      // `permissions` reports the effective set: direct slugs and those of the key's roles.
      storage.roles.slugsOfRoles(key.workspaceId, key.roles),
    ]);
    return keyResponse(key, identity, credits, {}, rolePermissions);
  },
});
