import { hasActionOnAny, hasAny, requireAny } from '../../../auth/permissions.js';
import { defineListRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { LIST_CURSOR, LIST_LIMIT, toPage } from '../../pagination.js';
import { readablePage } from '../../readable-page.js';
import { responseSchema } from './response.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: LIST_LIMIT, cursor: LIST_CURSOR },
} as const;
type Input = RequestOf<typeof requestSchema>;

/**
 * keygate's own procedure (Unkey's v2 API has no way to list APIs; its dashboard reads its
 * database): live APIs in id order, paginated. `api.*.read_api` lists every API; a key granted
 * `api.<apiId>.read_api` only sees those APIs; a key with neither gets the 403.
 */
export const apisListApis = defineListRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'apis.listApis',
  responseSchema,
  requestSchema,
  async handle({ input, principal, services }) {
    if (!hasActionOnAny(principal, 'api', 'read_api')) requireAny(principal, ['api.*.read_api']);
    const all = hasAny(principal, ['api.*.read_api']);
    const shown = await readablePage((options) => services.storage.apis.list(principal.workspaceId, options),
      (api) => all || principal.permissions.has(`api.${api.id}.read_api`), input.limit, input.cursor);
    return toPage(shown, input.limit, (api) => ({ id: api.id, name: api.name }));
  },
});
