/**
 * A stream of concurrent writes against one keygate, cut by a kill: createKey, credit spends
 * (verifyKey) and updateKey, each remembered only once acknowledged (a 200). After a restart,
 * `checkAcknowledged` proves that every acknowledged write is there, and that nothing beyond
 * what was attempted happened. Every non-200 answer is kept, with its body, for the test to judge.
 */
import { expect } from 'vitest';
import { callKeygate } from './harness.js';
import { recordSecret } from './run-logs.js';

const CREDITS = 1_000;

interface Tracked { readonly keyId: string; readonly key: string }

export interface StreamOutcome {
  /** Keys whose createKey was acknowledged. */
  readonly created: Tracked[];
  /** Per spend key: spends acknowledged, and spends sent (acknowledged or not). */
  readonly spends: Map<string, { acknowledged: number; attempted: number }>;
  /** Per update key: the last `meta.n` acknowledged, and the last sent. */
  readonly updates: Map<string, { acknowledged: number; attempted: number }>;
  /** Answers other than 200, as `status body`. */
  readonly refused: string[];
  /** Calls whose connection died (the process was killed while they were in flight). */
  connectionErrors: number;
}

export interface StreamTarget {
  /** The server to write to, read at each call (it may be replaced). */
  url(): string;
  readonly rootKey: string;
  readonly apiId: string;
}

/** Keys the stream spends credits of and updates, made before it starts. */
export async function prepareStream(target: StreamTarget, workers: number): Promise<{ spendKeys: Tracked[]; updateKeys: Tracked[] }> {
  const make = async (): Promise<Tracked> => {
    const res = await callKeygate(target.url(), '/v2/keys.createKey', { apiId: target.apiId, credits: { remaining: CREDITS } }, { rootKey: target.rootKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const spendKeys: Tracked[] = [];
  const updateKeys: Tracked[] = [];
  for (let i = 0; i < workers; i++) {
    spendKeys.push(await make());
    updateKeys.push(await make());
  }
  return { spendKeys, updateKeys };
}

/**
 * Runs `workers` writers until `kill` has run: it is called once `killAfter` writes were
 * acknowledged, while the writers keep sending, and the stream ends when it resolves.
 */
export async function writeUntilKilled(
  target: StreamTarget, keys: { spendKeys: Tracked[]; updateKeys: Tracked[] }, killAfter: number, kill: () => Promise<void>,
): Promise<StreamOutcome> {
  const outcome: StreamOutcome = { created: [], spends: new Map(), updates: new Map(), refused: [], connectionErrors: 0 };
  let acknowledged = 0;
  let stopped = false;
  const call = async (path: string, body: unknown): Promise<any | null> => {
    try {
      const res = await callKeygate(target.url(), path, body, { rootKey: target.rootKey });
      if (res.status === 200) {
        acknowledged++;
        return res.body;
      }
      outcome.refused.push(`${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    } catch {
      outcome.connectionErrors++;
    }
    return null;
  };
  const writer = async (i: number): Promise<void> => {
    const spend = keys.spendKeys[i]!;
    const update = keys.updateKeys[i]!;
    const spends = { acknowledged: 0, attempted: 0 };
    const updates = { acknowledged: 0, attempted: 0 };
    outcome.spends.set(spend.keyId, spends);
    outcome.updates.set(update.keyId, updates);
    for (let step = 0; !stopped; step++) {
      if (step % 3 === 0) {
        const body = await call('/v2/keys.createKey', { apiId: target.apiId, credits: { remaining: 5 } });
        if (body) {
          recordSecret(body.data.key);
          outcome.created.push(body.data);
        }
      } else if (step % 3 === 1) {
        spends.attempted++;
        const body = await call('/v2/keys.verifyKey', { key: spend.key });
        if (body) {
          expect(body.data.valid, JSON.stringify(body.data)).toBe(true);
          spends.acknowledged++;
        }
      } else {
        const n = ++updates.attempted;
        if (await call('/v2/keys.updateKey', { keyId: update.keyId, meta: { n } })) updates.acknowledged = n;
      }
    }
  };
  const writers = Array.from(keys.spendKeys, (_, i) => writer(i));
  while (acknowledged < killAfter) await new Promise((resolve) => setTimeout(resolve, 2));
  await kill();
  stopped = true;
  await Promise.all(writers);
  return outcome;
}

/** Every acknowledged write is in the store the target now serves; nothing beyond the attempts. */
export async function checkAcknowledged(target: StreamTarget, outcome: StreamOutcome): Promise<void> {
  const call = (path: string, body: unknown) => callKeygate(target.url(), path, body, { rootKey: target.rootKey });
  for (const { keyId, key } of outcome.created) {
    const res = await call('/v2/keys.verifyKey', { key });
    expect(res.body.data, `created key ${keyId}`).toMatchObject({ valid: true, keyId, credits: 4 });
  }
  for (const [keyId, { acknowledged, attempted }] of outcome.spends) {
    const remaining = (await call('/v2/keys.getKey', { keyId })).body.data.credits.remaining;
    expect(remaining, `credits of ${keyId}`).toBeLessThanOrEqual(CREDITS - acknowledged);
    expect(remaining, `credits of ${keyId}`).toBeGreaterThanOrEqual(CREDITS - attempted);
  }
  for (const [keyId, { acknowledged, attempted }] of outcome.updates) {
    const n = (await call('/v2/keys.getKey', { keyId })).body.data.meta?.n ?? 0;
    expect(n, `meta.n of ${keyId}`).toBeGreaterThanOrEqual(acknowledged);
    expect(n, `meta.n of ${keyId}`).toBeLessThanOrEqual(attempted);
  }
}
