import { ID_AND_NAME } from '../../response-schemas.js';

/** The API: its id and name. */
export const responseSchema = ID_AND_NAME;
