/** Editing a list of named rate limits (keys and identities carry the same shape). */
import type { JSX } from 'preact';
import { Button, formatDuration, parseDuration } from './ui.js';

export interface LimitDraft {
  name: string;
  limit: string;
  duration: string;
  autoApply: boolean;
}

export interface Ratelimit {
  id?: string;
  name: string;
  limit: number;
  duration: number;
  autoApply: boolean;
}

export const newLimit = (): LimitDraft => ({ name: 'requests', limit: '100', duration: '60s', autoApply: true });

export const toDraft = (r: Ratelimit): LimitDraft => ({ name: r.name, limit: String(r.limit), duration: `${r.duration / 1000}s`, autoApply: r.autoApply });

/** The request form of the drafts, or the first problem found (checked before calling keygate). */
export function parseLimits(drafts: readonly LimitDraft[]): { limits: Ratelimit[] } | { problem: string } {
  const limits: Ratelimit[] = [];
  for (const d of drafts) {
    const limit = Number(d.limit);
    const duration = parseDuration(d.duration);
    if (d.name.trim().length < 3) return { problem: 'Each limit needs a name of at least 3 characters.' };
    if (!Number.isInteger(limit) || limit < 1) return { problem: `Limit “${d.name}”: the number of requests must be a whole number ≥ 1.` };
    if (duration === null || duration < 1000) return { problem: `Limit “${d.name}”: the window must be at least 1s (e.g. 60s, 5m, 1h).` };
    limits.push({ name: d.name.trim(), limit, duration, autoApply: d.autoApply });
  }
  return { limits };
}

export function LimitsEditor({ drafts, onChange }: { drafts: LimitDraft[]; onChange: (drafts: LimitDraft[]) => void }): JSX.Element {
  const set = (i: number, patch: Partial<LimitDraft>): void => onChange(drafts.map((d, j) => (i === j ? { ...d, ...patch } : d)));
  return (
    <div class="limits">
      {drafts.length === 0 && <p class="field-hint">No rate limits.</p>}
      {drafts.map((d, i) => (
        <div class="limit-row" key={i}>
          <input aria-label="Limit name" placeholder="name" value={d.name} onInput={(e) => set(i, { name: e.currentTarget.value })} />
          <input aria-label="Requests" inputMode="numeric" placeholder="100" value={d.limit} onInput={(e) => set(i, { limit: e.currentTarget.value })} />
          <span class="muted">per</span>
          <input aria-label="Window" placeholder="60s" value={d.duration} onInput={(e) => set(i, { duration: e.currentTarget.value })} />
          <label class="check"><input type="checkbox" checked={d.autoApply} onChange={(e) => set(i, { autoApply: e.currentTarget.checked })} /> auto-apply</label>
          <button type="button" class="icon-btn" aria-label="Remove limit" onClick={() => onChange(drafts.filter((_, j) => j !== i))}>×</button>
        </div>
      ))}
      <Button onClick={() => onChange([...drafts, newLimit()])}>Add a limit</Button>
    </div>
  );
}

export function LimitsSummary({ limits }: { limits?: readonly Ratelimit[] }): JSX.Element {
  if (!limits || limits.length === 0) return <span class="muted">none</span>;
  return <span>{limits.map((r) => `${r.limit} / ${formatDuration(r.duration)}${r.autoApply ? '' : ' (on request)'}`).join(', ')}</span>;
}
