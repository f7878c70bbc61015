import { ID_AND_NAME } from '../../../shapes/responses.js';

/** One namespace of the page. */
export const responseSchema = ID_AND_NAME;
