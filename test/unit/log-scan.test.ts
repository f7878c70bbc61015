/**
 * The end-of-run search for keys in the logs (test/support/log-scan.ts) is what holds the whole
 * suite to "no log line contains a key": it must find a key wherever a line carries it, name the
 * file and line, and never print the key itself.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { describeLeak, leakFinder, scanRunDir, SECRETS_DIR } from '../support/log-scan.js';

const key = 'sk_3xKq9VfT2mWcR8pLzN4bYd';
const rootKey = 'replicas-root-0f3a9c1e22b7d4a86b1c9e0f';

describe('the search of the logs for keys', () => {
  test('finds a key wherever a line carries it, with its line number', () => {
    const find = leakFinder([key, rootKey, 'with spaces: not a token, still found']);
    const log = [
      '{"level":30,"msg":"request","procedure":"keys.verifyKey","requestId":"req_2Ab"}',
      `{"level":30,"msg":"user key is ${key}"}`,
      `${rootKey}`,
      `prefix${key}suffix`,
      `{"start":"${key.slice(0, 7)}","hash":"${'ab'.repeat(32)}"}`,
      'a line with spaces: not a token, still found in it',
    ].join('\n');
    expect(find('x.log', log).map((leak) => [leak.line, leak.secret])).toEqual([[2, key], [3, rootKey], [4, key], [6, 'with spaces: not a token, still found']]);
  });

  test('a report names the file and line, and only the first 6 characters of the key', () => {
    const text = describeLeak({ file: 'a.log', line: 7, secret: key });
    expect(text).toBe(`a.log:7: contains a recorded key (starts 'sk_3xK', ${key.length} characters)`);
    expect(text).not.toContain(key.slice(0, 7));
  });

  test('searches every .log of a run folder for every recorded key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-log-scan-'));
    try {
      mkdirSync(join(dir, SECRETS_DIR));
      writeFileSync(join(dir, SECRETS_DIR, '1.txt'), `${key}\n`);
      writeFileSync(join(dir, SECRETS_DIR, '2.txt'), `${rootKey}\n${key}\n`);
      writeFileSync(join(dir, 'clean.log'), 'nothing here\n');
      writeFileSync(join(dir, 'leaky.log'), `one\ntwo ${rootKey}\n`);
      const result = scanRunDir(dir);
      expect(result).toMatchObject({ files: 2, secrets: 2 });
      expect(result.leaks).toEqual([{ file: join(dir, 'leaky.log'), line: 2, secret: rootKey }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
