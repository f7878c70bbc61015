/**
 * Builds the dashboard (web/dashboard) into dist/dashboard/public: one minified script and one
 * stylesheet with content hashes in their names (served as immutable), and index.html naming them
 * (served with no-cache). Run by `npm run build` after tsc; esbuild does the whole job.
 */
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/dashboard/public`;
rmSync(out, { recursive: true, force: true });
mkdirSync(`${out}/assets`, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { app: 'web/dashboard/main.tsx' },
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'esm',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: `${out}/assets`,
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const script = outputs.find((f) => f.endsWith('.js'));
const style = outputs.find((f) => f.endsWith('.css'));
if (!script || !style) throw new Error(`dashboard build: expected a .js and a .css output, got ${outputs.join(', ')}`);

writeFileSync(`${out}/index.html`, `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>keygate dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/assets/${style}">
<script type="module" src="/dashboard/assets/${script}"></script>
</head>
<body>
<div id="app"><noscript>The keygate dashboard needs JavaScript.</noscript></div>
</body>
</html>
`);
const sizes = Object.entries(result.metafile.outputs).map(([p, o]) => `${basename(p)} ${(o.bytes / 1024).toFixed(1)} KiB`);
process.stdout.write(`dashboard: dist/dashboard/public (${sizes.join(', ')})\n`);
