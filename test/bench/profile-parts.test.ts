/**
 * bench:profile's table by part of a verification (bench/README.md, "Where the time goes"): a
 * sample counts once, for the first part any frame of its stack belongs to, so the SHA-256 inside
 * the verification is hashing, and only the onData callback's own time is reading the body.
 */
import { describe, expect, it } from 'vitest';
import { partsTable, type Profile, type ProfileNode } from '../../bench/lib/profile-parts.js';

const DIST = 'file:///srv/keygate/dist';

/** A profile of `stacks` (outermost frame first), each a chain under the root, sampled `count` times. */
function profileOf(stacks: readonly { frames: readonly [name: string, url: string][]; count: number }[]): Profile {
  const nodes: ProfileNode[] = [{ id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [] }];
  const samples: number[] = [];
  for (const { frames, count } of stacks) {
    let parent = nodes[0]!;
    for (const [functionName, url] of frames) {
      const node: ProfileNode = { id: nodes.length + 1, callFrame: { functionName, url, lineNumber: 133 }, children: [] };
      parent.children!.push(node.id);
      nodes.push(node);
      parent = node;
    }
    for (let i = 0; i < count; i++) samples.push(parent.id);
  }
  return { nodes, samples };
}

const rowsOf = (table: string): Record<string, string> =>
  Object.fromEntries(table.split('\n').filter((l) => /^\| \d/.test(l)).map((l) => l.split(' | ').map((c) => c.replace(/^\| | \|$/g, '')).reverse()));

describe("bench:profile's parts of a verification", () => {
  const onData: [string, string][] = [['onData', ''], ['', `${DIST}/server/request.js`]];
  const verify: [string, string][] = [...onData, ['runProcedure', `${DIST}/server/pipeline.js`], ['verifyKey', `${DIST}/keys/verify.js`]];
  const profile = profileOf([
    { frames: [...verify, ['hashKey', `${DIST}/keys/format.js`], ['oneShotDigest', '']], count: 3 },
    { frames: verify, count: 2 },
    { frames: onData, count: 1 },
    { frames: verify.slice(0, 3), count: 1 },
    { frames: [['(idle)', '']], count: 5 },
  ]);

  it('gives each busy sample one part: hashing inside the verification is hashing, onData\'s own time is reading the body, idle is left out', () => {
    expect(rowsOf(partsTable(profile))).toEqual({
      'SHA-256 of the key': '42.9 %',
      'the verification (hot set, checks)': '28.6 %',
      'reading the body': '14.3 %',
      'the rest (the pipeline, timers, uWS callbacks)': '14.3 %',
    });
  });
});
