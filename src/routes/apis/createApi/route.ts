import { requireAny } from '../../../auth/permissions.js';
import { newId } from '../../../util/ids.js';
import { defineRoute } from '../../define.js';
import { responseSchema } from './response.js';

interface Input { name: string }

export const apisCreateApi = defineRoute<Input, { apiId: string }>({
  name: 'apis.createApi',
  responseSchema,
  requestSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: { name: { type: 'string', minLength: 3, maxLength: 256 } },
  },
  async handle({ input, principal, services }) {
    requireAny(principal, ['api.*.create_api']);
    const apiId = newId('api');
    await services.storage.apis.insert({
      id: apiId, workspaceId: principal.workspaceId, name: input.name, keyspaceId: newId('ks'), createdAt: services.now(),
    });
    return { apiId };
  },
});
