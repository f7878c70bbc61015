/**
 * Retention and what an event keeps of a request: the sweep removes exactly the events older than
 * AUDIT_RETENTION_DAYS (on a real LMDB folder), and `changes` never holds a secret-bearing field.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { changesOf } from '../../src/audit/changes.js';
import { operatorEvent } from '../../src/audit/context.js';
import { startAuditSweeper } from '../../src/audit/sweeper.js';
import { createLogger } from '../../src/obs/log.js';
import { WORKSPACE_ID } from '../../src/storage/records.js';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';

const DAY = 86_400_000;

describe('audit retention', () => {
  test('a sweep removes the events older than the retention, and keeps the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-audit-retention-'));
    const storage = openLmdbStorage(dir);
    const now = 1_000 * DAY;
    try {
      for (const age of [120, 91, 89, 1]) {
        const id = `api_age${age}`;
        await storage.apis.insert({ id, workspaceId: WORKSPACE_ID, name: id, keyspaceId: 'ks_1', createdAt: 1 },
          operatorEvent('cli', 'test', { targets: [{ type: 'api', id }], summary: `${age} days old` }, now - age * DAY));
      }
      const sweeper = startAuditSweeper(storage.audit, 90, () => now, createLogger('silent'));
      try {
        expect(await sweeper.sweep()).toBe(2);
        expect((await storage.audit.list({ limit: 10 })).items.map((e) => e.summary)).toEqual(['1 days old', '89 days old']);
        expect(await sweeper.sweep()).toBe(0);
      } finally {
        sweeper.stop();
      }
      // The records stay: retention is about the log only.
      expect(await storage.apis.get('api_age120')).not.toBeNull();
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what an event keeps of a request', () => {
  test('secret-bearing fields are dropped at any depth; the rest is kept as sent', () => {
    expect(changesOf({ name: 'n', key: 'sk_1', keys: [{ hash: 'h', name: 'k' }], nested: { rootKey: 'r', plaintext: 'p', keep: 1 } }))
      .toEqual({ name: 'n', keys: [{ name: 'k' }], nested: { keep: 1 } });
  });

  test('fields the targets name are left out; nothing left is no changes at all', () => {
    expect(changesOf({ keyId: 'key_1', name: 'n' }, ['keyId'])).toEqual({ name: 'n' });
    expect(changesOf({ keyId: 'key_1' }, ['keyId'])).toBeUndefined();
  });

  test('a large change keeps the names of its fields only', () => {
    expect(changesOf({ meta: { blob: 'x'.repeat(10_000) }, name: 'n' })).toEqual({ truncated: true, fields: ['meta', 'name'], size: expect.any(Number) });
  });
});
