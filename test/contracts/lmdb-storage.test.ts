import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import type { Storage } from '../../src/storage/types.js';
import { describeStorage } from './storage.contract.js';
import { describeMigrationStorage } from './migration-storage.contract.js';
import { describeVerificationStorage } from './verification-storage.contract.js';
import { describeSessionStorage } from './session-storage.contract.js';
import { describeAuditStorage } from './audit-storage.contract.js';

/** The folder of the storage currently open; each test gets a fresh one. */
let dir: string | undefined;

function openFresh(verificationsRetained?: number): Storage {
  dir = mkdtempSync(join(tmpdir(), 'keygate-lmdb-contract-'));
  return openLmdbStorage(dir, verificationsRetained === undefined ? {} : { verificationsRetained });
}

async function closeAndRemove(storage: Storage): Promise<void> {
  try {
    await storage.close();
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  }
}

describeStorage('lmdb', () => openFresh(), closeAndRemove, {
  reopen: () => {
    if (!dir) throw new Error('no LMDB folder to reopen');
    return openLmdbStorage(dir);
  },
});

describeMigrationStorage('lmdb', () => openFresh(), closeAndRemove);

describeVerificationStorage('lmdb', openFresh, closeAndRemove);

describeSessionStorage('lmdb', () => openFresh(), closeAndRemove, () => {
  if (!dir) throw new Error('no LMDB folder to reopen');
  return openLmdbStorage(dir);
});

describeAuditStorage('lmdb', () => openFresh(), closeAndRemove);
