export { ROLE as responseSchema } from '../../response-schemas.js';
