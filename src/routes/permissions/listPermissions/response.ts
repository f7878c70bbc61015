/** One permission of the page. */
export { PERMISSION as responseSchema } from '../../response-schemas.js';
