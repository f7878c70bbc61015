import { requireAny } from '../../../auth/permissions.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { API_ID_OF_API } from '../../schemas.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { findLiveApi } from '../live-api.js';
import { responseSchema } from './response.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiId'],
  properties: { apiId: API_ID_OF_API },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const apisGetApi = defineRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'apis.getApi',
  responseSchema,
  requestSchema,
  async handle({ input, principal, services }) {
    // Checked before the lookup, so a 403 says nothing about whether the API exists.
    requireAny(principal, ['api.*.read_api', `api.${input.apiId}.read_api`]);
    const api = await findLiveApi(services, principal, input.apiId);
    return { id: api.id, name: api.name };
  },
});
