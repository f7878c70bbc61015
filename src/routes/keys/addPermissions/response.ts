/** The key's direct permissions before the call, then those added. */
export { PERMISSION_LIST as responseSchema } from '../../response-schemas.js';
