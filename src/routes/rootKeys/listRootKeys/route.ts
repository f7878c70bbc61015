import { requireAny } from '../../../auth/permissions.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { rootKeyResponse, type RootKeyResponse } from '../grants.js';
import { responseSchema } from './response.js';

const requestSchema = { type: 'object', additionalProperties: false, properties: {} } as const;

/** Every root key, revoked ones included (with `revokedAt`), oldest first; root keys are few, so no pages. */
export const rootKeysListRootKeys = defineRoute<RequestOf<typeof requestSchema>, RootKeyResponse[]>({
  name: 'rootKeys.listRootKeys',
  responseSchema,
  requestSchema,
  async handle({ principal, services }) {
    requireAny(principal, ['root_key.*.read_root_key']);
    const records = await services.storage.rootKeys.list();
    return records.filter((r) => r.workspaceId === principal.workspaceId).map(rootKeyResponse);
  },
});
