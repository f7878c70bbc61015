/**
 * keys.verifyKey reads its most common body, `{"key":"…"}`, without JSON.parse and the validator
 * (Route.quickInput). Whatever it recognises must be exactly what parsing and validating would
 * have produced; anything else must be left to them, so hostile bodies meet the same checks.
 */
import { describe, expect, test } from 'vitest';
import { keysVerifyKey } from '../../src/routes/keys/verifyKey/route.js';
import { compileValidators } from '../../src/validation/validators.js';
import type { Route } from '../../src/routes/define.js';

const quick = keysVerifyKey.quickInput!;
const validate = compileValidators([keysVerifyKey as unknown as Route]).get('keys.verifyKey')!;

/** What the ordinary path makes of a body: the input, or undefined when it is refused. */
function parsedAndValidated(text: string): unknown {
  let input: unknown;
  try {
    input = JSON.parse(text);
    validate(input, '/v2/keys.verifyKey');
  } catch {
    return undefined;
  }
  return input;
}

const ALPHABET = ['a', 'Z', '0', '_', '"', '\\', '\u0000', '\u001f', ' ', '\u007f', 'ü', '✓', '😀', '\ud83d', '{', '}', ':', ',', '\n', '\u2028'];

function randomKey(random: () => number, length: number): string {
  let key = '';
  for (let i = 0; i < length; i++) key += ALPHABET[Math.floor(random() * ALPHABET.length)]!;
  return key;
}

/** A small deterministic generator, so a failure can be replayed. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

describe('keys.verifyKey quick input', () => {
  test('the SDK\'s body is recognised, with the key as it was sent', () => {
    expect(quick(JSON.stringify({ key: 'sk_3ZbQk7Yq2Lr9Xw4T7' }))).toEqual({ key: 'sk_3ZbQk7Yq2Lr9Xw4T7' });
    expect(quick(JSON.stringify({ key: 'ü✓😀' }))).toEqual({ key: 'ü✓😀' });
    expect(quick(JSON.stringify({ key: 'x'.repeat(512) }))).toEqual({ key: 'x'.repeat(512) });
  });

  test('bodies it does not take are left to JSON.parse and the schema', () => {
    for (const text of [
      '{"key":""}', `{"key":"${'x'.repeat(513)}"}`, '{"key":"a\\"b"}', '{"key":"a\\u0041"}', '{"key":"a\u0001"}',
      '{ "key":"abc"}', '{"key":"abc","tags":["t"]}', '{"key":"abc"} ', '["key"]', '{"key":1}', '{"KEY":"abc"}',
    ]) expect(quick(text), text).toBeUndefined();
  });

  test('whatever it recognises, parsing and validating would have produced the same input', () => {
    const random = seeded(20_261_126);
    let recognised = 0;
    for (let i = 0; i < 20_000; i++) {
      const key = randomKey(random, Math.floor(random() * 6));
      const text = random() < 0.5 ? `{"key":"${key}"}` : JSON.stringify({ key });
      const value = quick(text);
      if (value === undefined) continue;
      recognised++;
      expect(parsedAndValidated(text), JSON.stringify(text)).toEqual(value);
    }
    // The corpus must exercise the recognised side too, or the check above proves nothing.
    expect(recognised).toBeGreaterThan(1_000);
  });
});
