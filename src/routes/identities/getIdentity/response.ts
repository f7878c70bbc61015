export { IDENTITY as responseSchema } from '../../response-schemas.js';
