import { newRootKey } from '../../../auth/bootstrap.js';
import { permissionProblem, requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { newId } from '../../../util/ids.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { requireHeld } from '../grants.js';
import { responseSchema } from './response.js';
import { target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';


const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'permissions'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    permissions: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', minLength: 1, maxLength: 300 } },
  },
} as const;
type Input = RequestOf<typeof requestSchema>;

/** keygate's own procedure (Unkey creates root keys in its dashboard): the dashboard calls it too. */
export const rootKeysCreateRootKey = defineRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'rootKeys.createRootKey',
  audited: true,
  responseSchema,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['root_key.*.create_root_key']);
    const permissions = [...new Set(input.permissions)];
    const issues = permissions.flatMap((permission, i) => {
      const problem = permissionProblem(permission);
      return problem === null ? [] : [{ location: `/permissions/${i}`, message: problem, fix: 'Use a tuple <type>.<id or *>.<action> from the permission catalogue.' }];
    });
    if (issues.length > 0) {
      throw new ApiError('err:unkey:application:invalid_input', 'Some permissions are not known to keygate.', { issues });
    }
    requireHeld(principal, permissions, 'grant');
    const { record, plaintext } = newRootKey(newId('rk'), input.name, permissions, services.now());
    await services.storage.rootKeys.put(record, ctx.audit({
      targets: [target('root_key', record.id, record.name)], summary: 'created root key', changes: changesOf(input),
    }));
    return { rootKeyId: record.id, key: plaintext, start: record.start };
  },
});
