import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import { describeStorage } from './storage.contract.js';

/** The folder of the storage currently open; each test gets a fresh one. */
let dir: string | undefined;

describeStorage(
  'lmdb',
  () => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-lmdb-contract-'));
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
  {
    reopen: () => {
      if (!dir) throw new Error('no LMDB folder to reopen');
      return openLmdbStorage(dir);
    },
  },
);
