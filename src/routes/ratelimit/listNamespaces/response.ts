import { ID_AND_NAME } from '../../response-schemas.js';

/** One namespace of the page. */
export const responseSchema = ID_AND_NAME;
