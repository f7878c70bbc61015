/**
 * Which override applies to an identifier (ratelimit.limit, ratelimit.multiLimit,
 * ratelimit.getOverride). Pure matching rules plus one lookup through the OverrideStore; overrides
 * never apply to keys.verifyKey limits (as in Unkey).
 *
 * Rules (keygate's decision where Unkey leaves the order unspecified):
 * 1. an override whose identifier equals the request identifier exactly wins (one index read);
 * 2. otherwise, among the namespace's patterns (identifiers containing `*`) that match, the most
 *    specific wins: the one with the most literal (non-`*`) characters; ties go to the smaller
 *    override id. So the answer never depends on storage order.
 */
import type { RatelimitOverrideRecord } from '../storage/records.js';
import type { OverrideStore } from '../storage/types.js';

/** Wildcard overrides one namespace may hold: every ratelimit.limit there matches against all of them. */
export const MAX_WILDCARD_OVERRIDES = 100;

/**
 * Glob match, whole-string anchored: `*` is any run of characters (possibly empty), every other
 * character is literal (including `?`, `.`, regex syntax). The literal runs between stars are
 * found left to right with indexOf, taking the earliest place each fits: for `*`-only globs that
 * choice never loses a match, so the cost is one scan of the identifier, whatever the pattern.
 */
export function wildcardMatches(pattern: string, identifier: string): boolean {
  const parts = pattern.split('*');
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (parts.length === 1) return pattern === identifier;
  if (first.length + last.length > identifier.length || !identifier.startsWith(first) || !identifier.endsWith(last)) return false;
  let from = first.length;
  const end = identifier.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] as string;
    if (part === '') continue;
    const at = identifier.indexOf(part, from);
    if (at < 0 || at + part.length > end) return false;
    from = at + part.length;
  }
  return true;
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
