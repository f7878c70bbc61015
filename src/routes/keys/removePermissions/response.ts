/** The key's direct permissions that remain. */
export { PERMISSION_LIST as responseSchema } from '../../response-schemas.js';
