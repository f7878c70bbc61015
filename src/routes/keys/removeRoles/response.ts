/** The key's roles that remain, each with its permissions. */
export { ROLE_LIST as responseSchema } from '../../response-schemas.js';
