import { describe, expect, it } from 'vitest';
import { warningTap } from '../../bench/lib/procs.js';

const line = (level: number, msg: string): string => `{"level":${level},"time":1,"service":"keygate","msg":"${msg}"}\n`;

describe('the bench reading keygate output it otherwise drops', () => {
  it('prints warn, error and fatal lines and no request lines, also when a chunk cuts a line', () => {
    const printed: string[] = [];
    const tap = warningTap((l) => printed.push(l));
    const text = line(30, 'request') + line(40, 'cache invalidation channel lost') + line(30, 'request') + line(50, 'redis down') + line(60, 'fatal');
    const cut = text.indexOf('channel');
    tap(Buffer.from(text.slice(0, cut)));
    tap(Buffer.from(text.slice(cut, cut + 3)));
    tap(Buffer.from(text.slice(cut + 3)));
    expect(printed).toEqual([line(40, 'cache invalidation channel lost').trim(), line(50, 'redis down').trim(), line(60, 'fatal').trim()]);
  });

  it('stops printing after a bounded number of lines and says how many it held back', () => {
    const printed: string[] = [];
    const tap = warningTap((l) => printed.push(l));
    tap(Buffer.from(line(40, 'again').repeat(60)));
    expect(printed.filter((l) => l.includes('again'))).toHaveLength(50);
    expect(printed.at(-1)).toMatch(/^\(1 more warning or error line\(s\) not shown\)$/);
  });
});
