import { requireAny } from '../../../auth/permissions.js';
import { defineRoute } from '../../define.js';
import { rootKeyResponse, type RootKeyResponse } from '../grants.js';
import { responseSchema } from './response.js';

/** Every root key, revoked ones included (with `revokedAt`), oldest first; root keys are few, so no pages. */
export const rootKeysListRootKeys = defineRoute<Record<string, never>, RootKeyResponse[]>({
  name: 'rootKeys.listRootKeys',
  responseSchema,
  requestSchema: { type: 'object', additionalProperties: false, properties: {} },
  async handle({ principal, services }) {
    requireAny(principal, ['root_key.*.read_root_key']);
    const records = await services.storage.rootKeys.list();
    return records.filter((r) => r.workspaceId === principal.workspaceId).map(rootKeyResponse);
  },
});
