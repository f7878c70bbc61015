/** The identity after the update (its `meta` as the request sent it). */
export { IDENTITY as responseSchema } from '../../response-schemas.js';
