import { ID_AND_NAME } from '../../../shapes/responses.js';

/** The API: its id and name. */
export const responseSchema = ID_AND_NAME;
