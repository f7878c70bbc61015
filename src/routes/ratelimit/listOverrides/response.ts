/** One override of the page. */
export { RATELIMIT_OVERRIDE as responseSchema } from '../../response-schemas.js';
