/**
 * DATA_DIR is a folder whatever its name: lmdb guesses "a file" from a dot in the last segment
 * (`/var/lib/keygate.data`, mktemp's `/tmp/tmp.Ab12Cd`), which made keygate fail to start there.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';

describe('DATA_DIR names', () => {
  const parent = mkdtempSync(join(tmpdir(), 'keygate-dirnames-'));
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  for (const name of ['keygate.data', 'tmp.Ab12Cd', 'plain']) {
    it(`stores records inside a folder named ${name}, existing or not`, async () => {
      const dir = join(parent, name);
      const storage = openLmdbStorage(dir);
      const api = { id: 'api_dirnames', workspaceId: 'ws_dirnames', name: 'dir-api', keyspaceId: 'ks_dirnames', createdAt: 1 };
      await storage.apis.insert(api);
      await storage.close();
      expect(readdirSync(dir)).toContain('data.mdb');
      const reopened = openLmdbStorage(dir);
      expect((await reopened.apis.get(api.id))?.name).toBe('dir-api');
      await reopened.close();
    });
  }
});
