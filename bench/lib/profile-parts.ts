/**
 * A CPU profile's busy samples by part of a verification (bench:profile's last table, and
 * bench/README's "Where the time goes"). A sample goes to the first part, in this order, that any
 * frame of its stack belongs to (or, for `leafOnly` parts, its innermost frame): the SHA-256 inside
 * the verification counts as hashing, not as the verification, and everything below uWS's onData
 * callback is not "reading the body".
 */
export interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
export interface Profile { nodes: ProfileNode[]; samples: number[] }

interface Part { readonly name: string; readonly frames: RegExp; readonly leafOnly?: boolean }

const PARTS: readonly Part[] = [
  { name: 'SHA-256 of the key', frames: /^oneShotDigest |crypto\/hash|^hashKey dist\/keys\/|^getCachedHashId / },
  { name: 'the request line (LOG_LEVEL=info)', frames: /dist\/obs\/log|sonic-boom|^\S+ node:fs:/ },
  { name: 'the analytics record', frames: /dist\/analytics\/|verification-columns/ },
  { name: 'metrics', frames: /dist\/obs\/metrics/ },
  { name: 'root-key authentication; the check for other processes\' changes', frames: /dist\/auth\/|dist\/storage\/lmdb\/changes|dist\/cache\// },
  { name: 'limits (the limiter, its batching and Redis calls)', frames: /dist\/ratelimit\/|dist\/keys\/limits|node_modules\/ioredis/ },
  { name: 'copying the request out of uWS (headers, request id, clock)', frames: /^readRequestInfo |^onHeader dist\/server\/|dist\/util\/ids/ },
  { name: 'reading the body', frames: /^quickInputOf |^plainKeyOf |encoding:|^decodeUTF8 / },
  // Its own time only: the whole synchronous path of a request runs inside the onData callback.
  { name: 'reading the body', frames: /dist\/server\/request\.js|^onData $/, leafOnly: true },
  { name: 'verifyKey\'s answer as bytes (its fixed parts copied, limits\' numbers written)', frames: /dist\/keys\/verify-answer/ },
  { name: 'the verification (hot set, checks)', frames: /dist\/keys\/|dist\/routes\/keys\// },
  { name: 'writing the answer (status, headers, body, end)', frames: /dist\/server\/reply|dist\/server\/http-status|dist\/util\/json-bytes|^write dist\/server\/app|^finish dist\/server\/app|^(end|writeStatus|writeHeader|writeBuffer|cork) $/ },
  { name: 'garbage collection on the event loop', frames: /^\(garbage collector\)/ },
  { name: 'V8 itself (`(program)`: calls between native code and JavaScript, stubs)', frames: /^\(program\)/ },
];
const REST = 'the rest (the pipeline, timers, uWS callbacks)';

/** A frame as bench:profile prints it: "name url:line", the url from dist/ or node_modules/ on. */
export const frameName = (f: ProfileNode['callFrame']): string => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}${f.url ? `:${f.lineNumber + 1}` : ''}`;

/** Each sample's stack as frame names (frameName), innermost first. */
export function sampleStacks(profile: Profile): string[][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return profile.samples.map((id) => {
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(frameName(byId.get(at)!.callFrame));
    return stack;
  });
}

export function partsTable(profile: Profile): string {
  const counts = new Map<string, number>();
  let busy = 0;
  for (const stack of sampleStacks(profile)) {
    if (stack[0]!.startsWith('(idle)')) continue;
    busy++;
    const part = PARTS.find((p) => (p.leafOnly ? p.frames.test(stack[0]!) : stack.some((f) => p.frames.test(f))))?.name ?? REST;
    counts.set(part, (counts.get(part) ?? 0) + 1);
  }
  const rows = [...counts].sort((a, b) => b[1] - a[1]).map(([part, n]) => `| ${(100 * n / Math.max(busy, 1)).toFixed(1)} % | ${part} |`);
  return `By part of the request (shares of the busy samples):\n\n| share | part |\n|---|---|\n${rows.join('\n')}`;
}
