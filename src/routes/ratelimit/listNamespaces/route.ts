import { hasActionOnAny, hasAny, requireAny } from '../../../auth/permissions.js';
import { defineListRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { LIST_CURSOR, LIST_LIMIT, toPage } from '../../pagination.js';
import { readablePage } from '../../readable-page.js';
import { responseSchema } from './response.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: LIST_LIMIT, cursor: LIST_CURSOR, search: { type: 'string', maxLength: 256 } },
} as const;
type Input = RequestOf<typeof requestSchema>;

/**
 * keygate's own procedure (Unkey's v2 API cannot list namespaces): live rate-limit namespaces in
 * id order, paginated; `search` matches id or name. `ratelimit.*.read_namespace` lists every
 * namespace; `ratelimit.<namespaceId>.read_namespace` only those; neither is the 403.
 */
export const ratelimitListNamespaces = defineListRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'ratelimit.listNamespaces',
  responseSchema,
  requestSchema,
  async handle({ input, principal, services }) {
    if (!hasActionOnAny(principal, 'ratelimit', 'read_namespace')) requireAny(principal, ['ratelimit.*.read_namespace']);
    const all = hasAny(principal, ['ratelimit.*.read_namespace']);
    const search = input.search?.trim();
    const shown = await readablePage((options) => services.storage.namespaces.list(principal.workspaceId, { ...options, ...(search ? { search } : {}) }),
      (ns) => all || principal.permissions.has(`ratelimit.${ns.id}.read_namespace`), input.limit, input.cursor);
    return toPage(shown, input.limit, (ns) => ({ id: ns.id, name: ns.name }));
  },
});
