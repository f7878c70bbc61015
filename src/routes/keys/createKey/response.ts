export { NEW_KEY as responseSchema } from '../../response-schemas.js';
