import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { DuplicateError } from '../../../storage/types.js';
import { newId } from '../../../util/ids.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { PERMISSION_SLUG } from '../../schemas.js';
import { DESCRIPTION } from '../shared.js';
import { responseSchema } from './response.js';
import { target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'slug'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 512 }, slug: PERMISSION_SLUG, description: DESCRIPTION },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const permissionsCreatePermission = defineRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'permissions.createPermission',
  audited: true,
  responseSchema,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['rbac.*.create_permission']);
    const permissionId = newId('perm');
    try {
      await services.storage.permissions.insert({
        id: permissionId,
        workspaceId: principal.workspaceId,
        name: input.name,
        slug: input.slug,
        ...(input.description ? { description: input.description } : {}),
        createdAt: services.now(),
      }, ctx.audit({ targets: [target('permission', permissionId, input.slug)], summary: `created permission '${input.slug}'`, changes: changesOf(input) }));
    } catch (err) {
      if (err instanceof DuplicateError) {
        throw new ApiError('err:unkey:data:permission_already_exists', `A permission with slug '${input.slug}' already exists in this workspace`);
      }
      throw err;
    }
    return { permissionId };
  },
});
