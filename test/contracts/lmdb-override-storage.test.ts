import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import { describeOverrideStorage } from './override-storage.contract.js';

/** The folder of the storage currently open; each test gets a fresh one. */
let dir: string | undefined;

describeOverrideStorage(
  'lmdb',
  () => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-lmdb-override-contract-'));
    return openLmdbStorage(dir);
  },
  async (storage) => {
    try {
      await storage.close();
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    }
  },
);
