import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { requireHeld } from '../grants.js';
import { EMPTY_DATA } from '../../../shapes/responses.js';
import { target } from '../../../audit/targets.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rootKeyId'],
  properties: { rootKeyId: { type: 'string', minLength: 3, maxLength: 255, pattern: '^[a-zA-Z0-9_]+$' } },
} as const;
type Input = RequestOf<typeof requestSchema>;

/**
 * Revokes a root key: it stops authenticating at once (dashboard sessions signed in with it
 * included). The record is kept, marked revoked. A root key may revoke only keys whose every
 * permission it holds itself, so a narrow key cannot lock out a broader one; it may revoke itself.
 */
export const rootKeysRevokeRootKey = defineRoute<Input, ShapeOf<typeof EMPTY_DATA>>({
  name: 'rootKeys.revokeRootKey',
  audited: true,
  responseSchema: EMPTY_DATA,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['root_key.*.revoke_root_key']);
    const { rootKeys } = services.storage;
    const record = await rootKeys.get(input.rootKeyId);
    if (!record || record.workspaceId !== principal.workspaceId) {
      throw new ApiError('err:keygate:data:root_key_not_found', 'The specified root key was not found.');
    }
    if (record.id !== principal.rootKeyId) requireHeld(principal, record.permissions, 'revoke keys with');
    // Revoking a revoked key again is a no-op that keeps the first time.
    await rootKeys.revoke(record.id, services.now(), ctx.audit({ targets: [target('root_key', record.id, record.name)], summary: 'revoked root key' }));
    await services.storage.sessions.endForRootKey(record.hash);
    return {};
  },
});
