/**
 * Helpers shared by the ratelimit route tests: unique names, namespaces that exist, overrides set
 * through the API, and soft-deleting a namespace (which no procedure can do).
 */
import { expect } from 'vitest';
import { WORKSPACE_ID, type NamespaceRecord } from '../../../src/storage/records.js';
import type { Harness } from '../../support/harness.js';

export const MINUTE = 60_000;

let seq = 0;
/** A name no other test uses. */
export const fresh = (label: string): string => `${label}-${Date.now()}-${seq++}`;

export const windowEnd = (nowMs: number, durationMs = MINUTE): number => (Math.floor(nowMs / durationMs) + 1) * durationMs;

/** A namespace that exists, created through ratelimit.limit with the admin key. */
export async function existingNamespace(h: Harness, name = fresh('ns')): Promise<{ name: string; id: string }> {
  const res = await h.call('ratelimit.limit', { namespace: name, identifier: 'warmup', limit: 1000, duration: MINUTE, cost: 0 });
  expect(res.status).toBe(200);
  const record = await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, name);
  return { name, id: record!.id };
}

/** Sets an override with the admin key and returns its id. */
export async function setOverride(h: Harness, namespace: string, identifier: string, limit: number, duration = MINUTE): Promise<string> {
  const res = await h.call('ratelimit.setOverride', { namespace, identifier, limit, duration });
  expect(res.status).toBe(200);
  return res.body.data.overrideId;
}

/** Marks a namespace deleted (no procedure does: it is an operator's act, done through storage). */
export async function softDeleteNamespace(h: Harness, nameOrId: string): Promise<NamespaceRecord> {
  const { storage } = h.keygate.services;
  const record = (await storage.namespaces.find(WORKSPACE_ID, nameOrId))!;
  expect(await storage.namespaces.markDeleted(record.id, Date.now())).toBe(true);
  const deleted = (await storage.namespaces.find(WORKSPACE_ID, nameOrId))!;
  expect(deleted.deletedAt).toBeTypeOf('number');
  return deleted;
}
