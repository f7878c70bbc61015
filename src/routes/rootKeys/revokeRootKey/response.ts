export { EMPTY_DATA as responseSchema } from '../../response-schemas.js';
