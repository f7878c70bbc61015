/**
 * Every procedure keygate serves, grouped by namespace. Explicit on purpose: grep for a wire name
 * and you find its registration here, its folder under routes/ and its tests under test/routes/.
 */
import type { Route } from './define.js';
import { apisCreateApi } from './apis/createApi/route.js';
import { apisGetApi } from './apis/getApi/route.js';
import { identitiesCreateIdentity } from './identities/createIdentity/route.js';
import { keysCreateKey } from './keys/createKey/route.js';
import { keysVerifyKey } from './keys/verifyKey/route.js';
import { ratelimitLimit } from './ratelimit/limit/route.js';

export const routes: readonly Route[] = [
  // apis
  apisCreateApi,
  apisGetApi,
  // identities
  identitiesCreateIdentity,
  // keys
  keysCreateKey,
  keysVerifyKey,
  // ratelimit
  ratelimitLimit,
] as Route[];
