/**
 * The layers of docs/code-map.md, as ESLint enforces them (eslint.config.js): a fixture file placed
 * in one folder imports from another, and the import-boundary rule must report exactly the
 * forbidden ones. Then the real tree, which must lint clean.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The boundary rule's findings for `source`, linted as if it were the file at `filePath`. */
async function boundaryFindings(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('layers (import-x/no-restricted-paths)', () => {
  it.each([
    ['src/keys/layer-fixture.ts', '../routes/ratelimits.js', 'Domain code does not know the HTTP edge'],
    ['src/keys/layer-fixture.ts', '../wiring/services.js', 'Domain code does not know the HTTP edge'],
    ['src/storage/layer-fixture.ts', '../server/reply.js', 'Domain code does not know the HTTP edge'],
    ['src/server/layer-fixture.ts', '../routes/index.js', 'only the contract (routes/define.ts)'],
    ['src/routes/layer-fixture.ts', '../wiring/build.js', 'never how it is built'],
    ['src/routes/layer-fixture.ts', '../server/reply.js', 'not the transport'],
    ['src/wiring/layer-fixture.ts', '../routes/index.js', 'Wiring builds the services'],
    ['web/dashboard/layer-fixture.ts', '../../src/storage/types.js', 'over HTTP'],
    ['src/shapes/layer-fixture.ts', '../keys/describe.js', 'import nothing of keygate'],
  ])('%s importing %s is reported', async (filePath, specifier, reason) => {
    const findings = await boundaryFindings(filePath, `import type * as imported from '${specifier}';\nexport type Imported = typeof imported;\n`);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toContain(reason);
  });

  it.each([
    ['src/keys/layer-fixture.ts', '../storage/types.js'],
    ['src/keys/layer-fixture.ts', '../shapes/responses.js'],
    ['src/server/layer-fixture.ts', '../routes/define.js'],
    ['src/routes/layer-fixture.ts', '../wiring/services.js'],
    ['src/wiring/layer-fixture.ts', '../keys/hot-set.js'],
    ['web/dashboard/layer-fixture.ts', '../../src/auth/catalogue.js'],
    ['web/dashboard/layer-fixture.ts', '../../src/shapes/responses.js'],
  ])('%s importing %s is allowed', async (filePath, specifier) => {
    expect(await boundaryFindings(filePath, `import type * as imported from '${specifier}';\nexport type Imported = typeof imported;\n`)).toEqual([]);
  });

  it('the repository lints clean', async () => {
    const results = await eslint.lintFiles(['.']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(root.length)}:${m.line} ${m.ruleId ?? ''} ${m.message}`));
    expect(problems).toEqual([]);
  }, 120_000);
});
