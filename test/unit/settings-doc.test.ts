/**
 * The settings tables agree with src/config.ts: docs/settings.md lists exactly the environment
 * variables loadConfig reads, each with loadConfig's default, and the README's short table of the
 * most-used settings is a part of it (same names, same defaults).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_DIR } from '../support/process.js';

interface Row { name: string; fallback: string }

const read = (path: string): string => readFileSync(join(PROJECT_DIR, path), 'utf8');

/** Rows `| \`NAME\` | default | meaning |` of every table in the text. */
function tableRows(text: string): Row[] {
  const rows: Row[] = [];
  for (const match of text.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]+) \|/gm)) {
    rows.push({ name: match[1]!, fallback: match[2]!.trim().replace(/^`(.*)`$/, '$1') });
  }
  return rows;
}

/** The settings loadConfig reads, with the default it gives each ('unset' when there is none). */
function configSettings(): Row[] {
  const source = read('src/config.ts');
  const rows: Row[] = [];
  for (const match of source.matchAll(/\btext\('([A-Z][A-Z0-9_]*)', '([^']*)'\)/g)) {
    rows.push({ name: match[1]!, fallback: match[2] === '' ? 'unset' : match[2]! });
  }
  for (const match of source.matchAll(/\bint\('([A-Z][A-Z0-9_]*)', ([^,]+),/g)) {
    const expression = match[2]!.replace(/_/g, '');
    if (!/^[\d\s*+]+$/.test(expression)) throw new Error(`cannot read the default of ${match[1]}: ${match[2]}`);
    rows.push({ name: match[1]!, fallback: String(Function(`return (${expression});`)()) });
  }
  for (const match of source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) rows.push({ name: match[1]!, fallback: 'unset' });
  // One row per setting: a name read twice (env.ROOT_KEY) counts once.
  return [...new Map(rows.map((row) => [row.name, row])).values()];
}

const byName = (rows: readonly Row[]): Record<string, string> => Object.fromEntries(rows.map((row) => [row.name, row.fallback]));

describe('the settings tables', () => {
  const config = configSettings();
  const documented = tableRows(read('docs/settings.md'));

  test('config.ts reads the settings this test expects to find', () => {
    // A sanity floor, so that a change in how config.ts reads the environment fails loudly here.
    expect(config.length).toBeGreaterThanOrEqual(25);
    expect(byName(config)).toMatchObject({ PORT: '8080', DATA_DIR: './data', ROOT_KEY: 'unset', REDIS_URL: 'unset' });
  });

  test('docs/settings.md lists every setting config.ts reads, once, and no other', () => {
    const names = documented.map((row) => row.name);
    expect(names.length, 'a setting is listed twice').toBe(new Set(names).size);
    expect([...names].sort()).toEqual(config.map((row) => row.name).sort());
  });

  test("docs/settings.md gives each setting config.ts's default", () => {
    expect(byName(documented)).toEqual(byName(config));
  });

  test("the README's settings are in docs/settings.md, with the same defaults", () => {
    const block = /<!-- settings:start -->([\s\S]*?)<!-- settings:end -->/.exec(read('README.md'));
    if (!block) throw new Error('README has no settings block');
    const short = tableRows(block[1]!);
    expect(short.length).toBeGreaterThanOrEqual(5);
    const all = byName(documented);
    for (const row of short) expect(`${row.name}: ${row.fallback}`).toBe(`${row.name}: ${all[row.name]}`);
  });
});
