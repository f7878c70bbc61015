/**
 * A value that writes its own JSON text: the reply builder uses it instead of JSON.stringify, so
 * parts of an answer that do not change between requests (a key's description) are serialized
 * once, not per request. Such a value still answers toJSON() for every other consumer.
 */
export const JSON_TEXT = Symbol('jsonText');

export interface HasJsonText {
  [JSON_TEXT](): string;
}

export const hasJsonText = (value: unknown): value is HasJsonText =>
  typeof value === 'object' && value !== null && JSON_TEXT in value;
