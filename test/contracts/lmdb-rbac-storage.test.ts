import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import { describeRbacStorage } from './rbac-storage.contract.js';

/** The folder of the storage currently open; each test gets a fresh one. */
let dir: string | undefined;

describeRbacStorage(
  'lmdb',
  () => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-lmdb-rbac-contract-'));
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
