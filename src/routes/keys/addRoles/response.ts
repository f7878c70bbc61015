/** The key's roles before the call, then those added, each with its permissions. */
export { ROLE_LIST as responseSchema } from '../../response-schemas.js';
