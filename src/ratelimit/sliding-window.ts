/**
 * Sliding-window counter arithmetic, integers only (no float rounding can admit one too many).
 * Two epoch-aligned fixed windows; the previous one is weighted by the share of it still inside
 * the sliding window. lua/ratelimit-check.lua decides with the same rules (rotation, the effective
 * count); keep them in step.
 *
 * Guarantee: admitted cost inside any aligned window never exceeds the limit.
 */

/** Stored state of one counter: window sequence `s`, its count `c`, the previous window's `p`. */
export interface WindowState {
  s: number;
  c: number;
  p: number;
}

/** Moves the state to the window containing `nowMs`. Never rolls backwards (clock steps). */
export function rotate(state: WindowState | undefined, nowMs: number, durationMs: number): WindowState {
  const seq = Math.floor(nowMs / durationMs);
  if (!state) return { s: seq, c: 0, p: 0 };
  if (state.s >= seq) return state;
  if (state.s === seq - 1) return { s: seq, c: 0, p: state.c };
  return { s: seq, c: 0, p: 0 };
}

/** Units counted against the limit at `nowMs` for a state already rotated to that window. */
export function effective(state: WindowState, nowMs: number, durationMs: number): number {
  return effectiveOf(state.s, state.c, state.p, nowMs, durationMs);
}

/** effective() on the state's numbers (the memory limiter keeps states as numbers). */
export function effectiveOf(s: number, c: number, p: number, nowMs: number, durationMs: number): number {
  // Clamp: after a backwards clock step the time elapsed may fall outside 0..D.
  const left = Math.min(durationMs, Math.max(0, durationMs - (nowMs - s * durationMs)));
  return c + Math.floor((p * left) / durationMs);
}

/**
 * Smallest wait (ms) after which `cost` could pass, assuming no other traffic. 0 if it passes now.
 * Infinity when it can never pass (cost above the limit).
 */
export function retryAfter(state: WindowState, nowMs: number, durationMs: number, limit: number, cost: number): number {
  if (cost > limit) return Number.POSITIVE_INFINITY;
  if (effective(state, nowMs, durationMs) + cost <= limit) return 0;
  const windowEnd = (state.s + 1) * durationMs;
  if (state.c + cost <= limit) {
    // Within this window: wait until p·(D − elapsed)/D decays to at most limit − c − cost.
    const allowed = limit - state.c - cost;
    if (state.p === 0) return windowEnd - nowMs;
    // floor(p·left/D) ≤ allowed  ⇔  p·left < (allowed + 1)·D  ⇔  left ≤ ceil((allowed+1)·D/p) − 1
    const maxLeft = Math.ceil(((allowed + 1) * durationMs) / state.p) - 1;
    const at = state.s * durationMs + (durationMs - maxLeft);
    return Math.max(1, at - nowMs);
  }
  // Next window: c becomes the previous count; wait until it has decayed enough.
  const allowed = limit - cost;
  if (state.c === 0) return windowEnd - nowMs;
  const maxLeft = Math.ceil(((allowed + 1) * durationMs) / state.c) - 1;
  return windowEnd + (durationMs - Math.min(durationMs, maxLeft)) - nowMs;
}
