/** The key's direct permissions as set. */
export { PERMISSION_LIST as responseSchema } from '../../response-schemas.js';
