export { PERMISSION as responseSchema } from '../../response-schemas.js';
