/** One key of the page. */
export { KEY_RESPONSE_DATA as responseSchema } from '../../response-schemas.js';
