/**
 * The embedded change log (src/storage/lmdb/changes.ts), on a real LMDB folder: what one process
 * writes, a feed opened by another reader delivers in order, once; a reader that missed entries
 * (trimmed before it read them) is told that everything changed rather than nothing; a write of
 * the reader's own thread is delivered by its next catch-up, another writer's within
 * OTHERS_WITHIN_MS. With the change signal (the file every writer announces in), the log is read
 * only when the signal moved, and a writer that does not announce is still read within
 * FULL_READ_EVERY_MS.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { afterEach, describe, expect, test } from 'vitest';
import type { Change } from '../../src/cache/change-feed.js';
import { CHANGE_SIGNAL_FILE, ChangeSignal } from '../../src/storage/lmdb/change-signal.js';
import { FULL_READ_EVERY_MS, LmdbChangeFeed, noteChange, OTHERS_WITHIN_MS, useChangeSignal } from '../../src/storage/lmdb/changes.js';

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

  test('a write of this thread is delivered by the very next catch-up', async () => {
    const log = openLog();
    const feed = new LmdbChangeFeed(log);
    const seen: Change[] = [];
    feed.listen((c) => seen.push(c));
    for (let i = 0; i < 5; i++) {
      feed.catchUp();
      await root.transaction(() => noteChange(log, { kind: 'key', id: `key_${i}`, hashes: [`h${i}`] }));
      feed.catchUp();
      expect(seen.at(-1)).toEqual({ kind: 'key', id: `key_${i}`, hashes: [`h${i}`] });
    }
  });

  test('another writer of the folder (here a second handle on it, as the CLI has): delivered within OTHERS_WITHIN_MS', async () => {
    const log = openLog();
    const feed = new LmdbChangeFeed(log);
    const seen: Change[] = [];
    feed.listen((c) => seen.push(c));
    const other = open({ path: dir, maxDbs: 4, noSubdir: false }) as RootDatabase;
    try {
      const otherLog = other.openDB({ name: 'changes', encoding: 'msgpack' });
      feed.catchUp();
      await other.transaction(() => noteChange(otherLog, { kind: 'api', id: 'api_other' }));
      // The first catch-up once OTHERS_WITHIN_MS has passed since the last read delivers it (no
      // upper bound on time is asserted: a busy machine may only make the wait longer).
      await new Promise((resolve) => setTimeout(resolve, OTHERS_WITHIN_MS + 1));
      feed.catchUp();
      expect(seen).toEqual([{ kind: 'api', id: 'api_other' }]);
    } finally {
      await other.close();
    }
  });

  describe('with the change signal', () => {
    const signals: ChangeSignal[] = [];
    afterEach(() => {
      for (const signal of signals.splice(0)) signal.close();
    });
    const signalFor = (log: Database): ChangeSignal => {
      const signal = ChangeSignal.open(dir);
      signals.push(signal);
      useChangeSignal(log, signal);
      return signal;
    };
    /** Counts the feed's reads of the log (the real LMDB calls still run). */
    const countReads = (log: Database): { reads: number } => {
      const counter = { reads: 0 };
      const get = log.get.bind(log);
      const getRange = log.getRange.bind(log);
      log.get = ((...args: Parameters<typeof get>) => { counter.reads++; return get(...args); }) as typeof log.get;
      log.getRange = ((...args: Parameters<typeof getRange>) => { counter.reads++; return getRange(...args); }) as typeof log.getRange;
      return counter;
    };
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    /**
     * A feed with the signal on a fresh log, and a second handle on the folder (as the CLI has)
     * that announces its changes or not; the feed has made its first check.
     */
    async function withOtherWriter(announces: boolean, body: (feed: LmdbChangeFeed, seen: Change[], log: Database, otherLog: Database, other: RootDatabase) => Promise<void>): Promise<void> {
      const log = openLog();
      const feed = new LmdbChangeFeed(log, signalFor(log));
      const seen: Change[] = [];
      feed.listen((c) => seen.push(c));
      const other = open({ path: dir, maxDbs: 4, noSubdir: false }) as RootDatabase;
      try {
        const otherLog = other.openDB({ name: 'changes', encoding: 'msgpack' });
        if (announces) signalFor(otherLog);
        feed.catchUp(); // the first check of a new feed reads the log once in any case
        await body(feed, seen, log, otherLog, other);
      } finally {
        await other.close();
      }
    }

    test("another writer's announced change is delivered within OTHERS_WITHIN_MS; the log is not read while nothing was announced", async () => {
      await withOtherWriter(true, async (feed, seen, log, otherLog, other) => {
        const reads = countReads(log);
        for (let i = 0; i < 5; i++) {
          await pause(OTHERS_WITHIN_MS + 1);
          feed.catchUp();
        }
        expect(reads.reads).toBe(0);
        await other.transaction(() => noteChange(otherLog, { kind: 'api', id: 'api_other' }));
        await pause(OTHERS_WITHIN_MS + 1);
        feed.catchUp();
        expect(seen).toEqual([{ kind: 'api', id: 'api_other' }]);
        expect(reads.reads).toBeGreaterThan(0);
      });
    });

    test('a writer that does not announce (an older keygate) is still delivered, within FULL_READ_EVERY_MS', async () => {
      await withOtherWriter(false, async (feed, seen, _log, otherLog, other) => {
        await other.transaction(() => noteChange(otherLog, { kind: 'roles' }));
        const deadline = Date.now() + FULL_READ_EVERY_MS + 200;
        while (seen.length === 0 && Date.now() < deadline) {
          await pause(OTHERS_WITHIN_MS + 1);
          feed.catchUp();
        }
        expect(seen).toEqual([{ kind: 'roles' }]);
      });
    });

    test('a signal that cannot be read whole counts as a change: the log is read', async () => {
      await withOtherWriter(false, async (feed, seen, _log, otherLog, other) => {
        await other.transaction(() => noteChange(otherLog, { kind: 'rootKeys' }));
        writeFileSync(join(dir, CHANGE_SIGNAL_FILE), Buffer.from([1, 2, 3]));
        await pause(OTHERS_WITHIN_MS + 1);
        feed.catchUp();
        expect(seen).toEqual([{ kind: 'rootKeys' }]);
      });
    });
  });
});
