import { API_NOT_FOUND_DETAIL, findLiveApi } from '../live-api.js';
import { hasAny, requireAny, type Principal } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { keyResponse, type KeyResponse } from '../../../keys/describe.js';
import { notRecoverable } from '../../../keys/recoverable.js';
import type { IdentityRecord } from '../../../storage/records.js';
import { defineListRoute, type RequestOf } from '../../define.js';
import { LIST_CURSOR, LIST_LIMIT, toPage } from '../../pagination.js';
import { KEY_RESPONSE_DATA } from '../../../shapes/responses.js';

/** No API id or externalId is longer; longer values are not looked up (they name nothing). */
const MAX_NAME = 255;

/** Every group needs one of its tuples; the 403 names all the groups that have none. */
function requireAll(principal: Principal, groups: readonly (readonly string[])[]): void {
  const missing = groups.filter((anyOf) => !hasAny(principal, anyOf));
  if (missing.length === 0) return;
  if (missing.length === 1) requireAny(principal, missing[0]!);
  const detail = missing.map((anyOf) => anyOf.map((p) => `'${p}'`).join(' or ')).join(', and one of ');
  throw new ApiError('err:keygate:authorization:forbidden', `Missing one of ${detail}.`);
}

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiId'],
  properties: {
    // Unkey accepts any non-empty string here (ids longer than 255 cannot exist: 404).
    apiId: { type: 'string', minLength: 1 },
    limit: LIST_LIMIT,
    // A plain key id, inclusive lower bound. Bounded (as Unkey bounds listPermissions' cursor)
    // so it always fits a storage key.
    cursor: LIST_CURSOR,
    externalId: { type: 'string', minLength: 1 },
    decrypt: { type: 'boolean', default: false },
    // Accepted and ignored, as in Unkey: keygate has no verification cache to revalidate.
    revalidateKeysCache: { type: 'boolean', default: false },
  },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const apisListKeys = defineListRoute<Input, KeyResponse>({
  name: 'apis.listKeys',
  // One key of the page.
  responseSchema: KEY_RESPONSE_DATA,
  requestSchema,
  async handle({ input, principal, services }) {
    const { apiId } = input;
    // keygate's rule: permissions before the lookup (Unkey masks a failed read check as a 404).
    requireAll(principal, [
      ['api.*.read_key', `api.${apiId}.read_key`],
      ['api.*.read_api', `api.${apiId}.read_api`],
    ]);
    if (input.decrypt) requireAny(principal, ['api.*.decrypt_key', `api.${apiId}.decrypt_key`]);

    const { storage } = services;
    // Over-long ids cannot exist; they are answered without a storage lookup.
    if (apiId.length > MAX_NAME) throw new ApiError('err:unkey:data:api_not_found', API_NOT_FOUND_DETAIL);
    const api = await findLiveApi(services, principal, apiId);
    if (input.decrypt) throw notRecoverable();

    let identityId: string | undefined;
    if (input.externalId !== undefined) {
      const identity = input.externalId.length > MAX_NAME ? null
        : await storage.identities.findByExternalId(principal.workspaceId, input.externalId);
      if (!identity) return { data: [], pagination: { hasMore: false } };
      identityId = identity.id;
    }

    const records = await storage.keys.listByApi(api.id, {
      limit: input.limit + 1,
      ...(input.cursor ? { cursor: input.cursor } : {}),
      ...(identityId !== undefined ? { identityId } : {}),
    });
    const shown = records.slice(0, input.limit);
    // Several keys often share an identity: each is read once per page.
    const identities = new Map<string, IdentityRecord | null>();
    for (const key of shown) {
      if (key.identityId === undefined || identities.has(key.identityId)) continue;
      const identity = await storage.identities.get(key.identityId);
      identities.set(key.identityId, identity && identity.workspaceId === principal.workspaceId ? identity : null);
    }
    const credits = new Map(await Promise.all(shown.filter((k) => k.hasCredits)
      .map(async (k) => [k.id, await storage.keys.getCredits(k.id)] as const)));
    // `permissions` reports the effective set: direct slugs and those of the key's roles.
    const rolePermissions = new Map(await Promise.all(shown.filter((k) => k.roles.length > 0)
      .map(async (k) => [k.id, await storage.roles.slugsOfRoles(k.workspaceId, k.roles)] as const)));
    return toPage(records, input.limit, (key) => keyResponse(
      key,
      key.identityId === undefined ? null : identities.get(key.identityId) ?? null,
      credits.get(key.id) ?? null,
      {},
      rolePermissions.get(key.id) ?? [],
    ));
  },
});
