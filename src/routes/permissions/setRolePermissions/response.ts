/** The role's permissions as set, by slug. */
export { PERMISSION_LIST as responseSchema } from '../../response-schemas.js';
