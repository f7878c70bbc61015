/**
 * The embedded change log (src/storage/lmdb/changes.ts), on a real LMDB folder: what one process
 * writes, a feed opened by another reader delivers in order, once; a reader that missed entries
 * (trimmed before it read them) is told that everything changed rather than nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterEach, describe, expect, test } from 'vitest';
import type { Change } from '../../src/cache/change-feed.js';
import { LmdbChangeFeed, noteChange } from '../../src/storage/lmdb/changes.js';

describe('LMDB change log', () => {
  let dir: string;
  let root: RootDatabase;
  afterEach(async () => {
    await root?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function openLog() {
    dir = mkdtempSync(join(tmpdir(), 'keygate-changes-'));
    root = open({ path: dir, maxDbs: 4, noSubdir: false }) as RootDatabase;
    return root.openDB({ name: 'changes', encoding: 'msgpack' });
  }

  test('delivers every change written after the feed opened, in order, once', async () => {
    const log = openLog();
    await root.transaction(() => noteChange(log, { kind: 'rootKeys' }));
    const feed = new LmdbChangeFeed(log);
    const seen: Change[] = [];
    feed.listen((c) => seen.push(c));
    feed.catchUp();
    expect(seen).toEqual([]);
    await root.transaction(() => {
      noteChange(log, { kind: 'key', id: 'key_1', hashes: ['h1', 'h2'] });
      noteChange(log, { kind: 'identity', id: 'id_1' });
    });
    await root.transaction(() => noteChange(log, { kind: 'roles' }));
    feed.catchUp();
    expect(seen).toEqual([{ kind: 'key', id: 'key_1', hashes: ['h1', 'h2'] }, { kind: 'identity', id: 'id_1' }, { kind: 'roles' }]);
    feed.catchUp();
    expect(seen).toHaveLength(3);
  });

  test('entries missing before the reader read them: everything changed', async () => {
    const log = openLog();
    const feed = new LmdbChangeFeed(log);
    const seen: Change[] = [];
    feed.listen((c) => seen.push(c));
    await root.transaction(() => {
      for (let i = 0; i < 3; i++) noteChange(log, { kind: 'api', id: `api_${i}` });
    });
    // As the trimming would: the oldest entry goes before this reader saw it.
    await root.transaction(() => { log.remove(1); });
    feed.catchUp();
    expect(seen.at(-1)).toEqual({ kind: 'everything' });
    expect(seen).not.toContainEqual({ kind: 'api', id: 'api_0' });
  });
});
