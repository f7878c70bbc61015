/**
 * The one shared copy of a string with this text (V8's string table, as for property names):
 * flat, and the same object wherever it is made. A Map lookup with a key built by concatenation
 * compares it character by character with the stored key, flattening it first, whenever the two
 * are different objects (two keys of one identity make its counter name twice); interned keys
 * compare by identity.
 */
export const intern = (text: string): string => Object.keys({ [text]: 0 })[0]!;
