/** One identity of the page. */
export { IDENTITY as responseSchema } from '../../response-schemas.js';
