/**
 * The hand-written msgpack array of the limiter's script calls (src/redis/msgpack-array.ts) must
 * decode to exactly the values written, as a general msgpack decoder (msgpackr here, cmsgpack in
 * Redis) reads them: every size class of numbers, strings and arrays.
 */
import { unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { MsgpackArrayWriter, packedString } from '../../src/redis/msgpack-array.js';

function written(values: readonly (number | string)[]): unknown {
  const out = new MsgpackArrayWriter();
  out.start(values.length);
  for (const v of values) {
    if (typeof v === 'number') out.number(v);
    else out.packed(packedString(v));
  }
  return unpack(out.take());
}

describe('MsgpackArrayWriter', () => {
  it('numbers of every size, fractions, negatives and the largest a limit can be', () => {
    const numbers = [0, 1, 127, 128, 255, 256, 65_535, 65_536, 2 ** 32 - 1, 2 ** 32, 1e12, Number.MAX_SAFE_INTEGER, 0.5, -1, -(2 ** 40), 1e300];
    expect(written(numbers)).toEqual(numbers);
  });

  it('strings of every length class, non-ASCII text, and a lone surrogate (as UTF-8 encodes it)', () => {
    const strings = ['', 'a', 'x'.repeat(31), 'x'.repeat(32), 'y'.repeat(255), 'y'.repeat(256), 'z'.repeat(65_536), 'owner:vk:i:ÿ€😀:60000', 'id-\ud800'];
    expect(written(strings)).toEqual([...strings.slice(0, -1), 'id-\ufffd']);
  });

  it('arrays of 15, 16 and 65,536 elements, and a writer reused after a large array', () => {
    const out = new MsgpackArrayWriter();
    for (const n of [15, 16, 65_536, 3]) {
      const values = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? i : `f${i}`));
      out.start(values.length);
      for (const v of values) {
        if (typeof v === 'number') out.number(v);
        else out.packed(packedString(v));
      }
      expect(unpack(out.take())).toEqual(values);
    }
  });

  it('what take() returned stays as it was when the writer writes the next array', () => {
    const out = new MsgpackArrayWriter();
    out.start(2);
    out.number(1);
    out.packed(packedString('first'));
    const first = out.take();
    out.start(2);
    out.number(2);
    out.packed(packedString('other'));
    out.take();
    expect(unpack(first)).toEqual([1, 'first']);
  });
});
