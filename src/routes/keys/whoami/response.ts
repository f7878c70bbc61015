/** As getKey, with `permissions` sorted. */
export { KEY_RESPONSE_DATA as responseSchema } from '../../response-schemas.js';
