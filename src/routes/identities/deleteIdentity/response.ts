/** As in Unkey, the success body is `{meta}` alone: no `data` at all. */
export const responseSchema = null;
