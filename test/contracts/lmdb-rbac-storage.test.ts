import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import type { Storage } from '../../src/storage/types.js';
import { describeDeleteAttachRace } from './delete-attach-race.contract.js';
import { describeDeleteInsertRace } from './delete-insert-race.contract.js';
import { describeRbacStorage } from './rbac-storage.contract.js';

/** The folder of the storage currently open; each test gets a fresh one. */
let dir: string | undefined;

function open(): Storage {
  dir = mkdtempSync(join(tmpdir(), 'keygate-lmdb-rbac-contract-'));
  return openLmdbStorage(dir);
}

async function close(storage: Storage): Promise<void> {
  try {
    await storage.close();
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  }
}

describeRbacStorage('lmdb', open, close);
describeDeleteAttachRace('lmdb', open, close);
describeDeleteInsertRace('lmdb', open, close);
