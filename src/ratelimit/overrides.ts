/**
 * Which override applies to an identifier (ratelimit.limit, ratelimit.multiLimit,
 * ratelimit.getOverride). Pure matching rules plus one lookup through the OverrideStore; overrides
 * never apply to keys.verifyKey limits (as in Unkey).
 *
 * Rules (keygate's decision where Unkey leaves the order unspecified, spec §7.4.3):
 * 1. an override whose identifier equals the request identifier exactly wins (one index read);
 * 2. otherwise, among the namespace's patterns (identifiers containing `*`) that match, the most
 *    specific wins: the one with the most literal (non-`*`) characters; ties go to the smaller
 *    override id. So the answer never depends on storage order.
 */
import type { RatelimitOverrideRecord } from '../storage/records.js';
import type { OverrideStore } from '../storage/types.js';

/**
 * Glob match, whole-string anchored: `*` is any run of characters (possibly empty), every other
 * character is literal (including `?`, `.`, regex syntax). Iterative with one backtrack point, so
 * it runs in O(pattern × identifier) whatever the input; a regex could backtrack far worse.
 */
export function wildcardMatches(pattern: string, identifier: string): boolean {
  let p = 0;
  let s = 0;
  let star = -1; // position of the last `*` seen in the pattern
  let resume = 0; // where in the identifier that `*` currently stops
  while (s < identifier.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === identifier[s]) {
      p++;
      s++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = s;
    } else if (star >= 0) {
      // Let the last `*` absorb one more character and retry from there.
      p = star + 1;
      s = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Literal characters of a pattern: more means more specific. */
export const specificity = (pattern: string): number => pattern.length - (pattern.match(/\*/g)?.length ?? 0);

/** The most specific matching pattern among `candidates` (rule 2), or null. */
export function mostSpecificWildcard(
  candidates: readonly RatelimitOverrideRecord[], identifier: string,
): RatelimitOverrideRecord | null {
  let best: RatelimitOverrideRecord | null = null;
  let bestScore = -1;
  for (const candidate of candidates) {
    if (!candidate.identifier.includes('*') || !wildcardMatches(candidate.identifier, identifier)) continue;
    const score = specificity(candidate.identifier);
    if (score > bestScore || (score === bestScore && best !== null && candidate.id < best.id)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** The live override that applies to `identifier` in the namespace, or null (rules 1 and 2). */
export async function findOverride(store: OverrideStore, namespaceId: string, identifier: string): Promise<RatelimitOverrideRecord | null> {
  const exact = await store.findExact(namespaceId, identifier);
  if (exact) return exact;
  return mostSpecificWildcard(await store.wildcards(namespaceId), identifier);
}
