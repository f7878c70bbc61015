/** The type of the JSON a schema admits (json-schema-to-ts): the schema is the one source of its shape. */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

export type ShapeOf<S extends JSONSchema> = FromSchema<S>;
