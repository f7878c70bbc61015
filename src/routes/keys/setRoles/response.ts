/** The key's roles as set, each with its permissions. */
export { ROLE_LIST as responseSchema } from '../../response-schemas.js';
