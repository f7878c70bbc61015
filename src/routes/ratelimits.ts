/** Turning requested limit definitions into stored configs (shared by keys and identities). */
import type { RatelimitConfig } from '../storage/records.js';
import { newId } from '../util/ids.js';
import type { RatelimitRequest } from './schemas.js';

/** Duplicate names collapse, the last definition winning (Unkey's upsert behaviour). */
export function toRatelimitConfigs(requested: readonly RatelimitRequest[] | undefined): RatelimitConfig[] {
  const byName = new Map<string, RatelimitConfig>();
  for (const r of requested ?? []) {
    byName.set(r.name, { id: byName.get(r.name)?.id ?? newId('rl'), name: r.name, limit: r.limit, duration: r.duration, autoApply: r.autoApply });
  }
  return [...byName.values()];
}
