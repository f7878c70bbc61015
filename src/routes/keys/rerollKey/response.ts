/** The new key; the old one keeps working until its new expiry. */
export { NEW_KEY as responseSchema } from '../../response-schemas.js';
