/**
 * The shapes of keygate's answers the dashboard reads, derived from the server's response schemas
 * so the two cannot drift. Type-only imports: nothing of the server is bundled.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { ID_AND_NAME, IDENTITY, KEY_RESPONSE_DATA, PERMISSION, RATELIMIT_OVERRIDE, ROLE } from '../../src/shapes/responses.js';
import type { responseSchema as ROOT_KEY_LIST } from '../../src/routes/rootKeys/listRootKeys/response.js';

export type Api = FromSchema<typeof ID_AND_NAME>;
export type Namespace = FromSchema<typeof ID_AND_NAME>;
export type Key = FromSchema<typeof KEY_RESPONSE_DATA>;
export type Identity = FromSchema<typeof IDENTITY>;
export type Permission = FromSchema<typeof PERMISSION>;
export type Role = FromSchema<typeof ROLE>;
export type Override = FromSchema<typeof RATELIMIT_OVERRIDE>;
export type RootKey = FromSchema<typeof ROOT_KEY_LIST>[number];
