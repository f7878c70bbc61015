/** One role of the page. */
export { ROLE as responseSchema } from '../../response-schemas.js';
