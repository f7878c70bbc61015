import { requireAny } from '../../../auth/permissions.js';
import { newId } from '../../../util/ids.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { responseSchema } from './response.js';
import { target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 3, maxLength: 256 } },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const apisCreateApi = defineRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'apis.createApi',
  audited: true,
  responseSchema,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['api.*.create_api']);
    const apiId = newId('api');
    await services.storage.apis.insert({
      id: apiId, workspaceId: principal.workspaceId, name: input.name, keyspaceId: newId('ks'), createdAt: services.now(),
    }, ctx.audit({ targets: [target('api', apiId, input.name)], summary: `created API '${input.name}'`, changes: changesOf(input) }));
    return { apiId };
  },
});
