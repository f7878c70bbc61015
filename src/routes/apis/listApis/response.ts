import { ID_AND_NAME } from '../../response-schemas.js';

/** One API of the page. */
export const responseSchema = ID_AND_NAME;
