/** The override ratelimit.limit would apply to the identifier (possibly a matching pattern). */
export { RATELIMIT_OVERRIDE as responseSchema } from '../../response-schemas.js';
