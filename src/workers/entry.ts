/**
 * Where a worker thread's entry module is, as JavaScript: worker threads cannot load TypeScript.
 * Running from dist/ it is the compiled sibling; when this module runs as TypeScript (tests,
 * through vitest) it is the compiled copy in dist/, which `npm test` builds first.
 */
import { fileURLToPath } from 'node:url';

/** `modulePath` relative to dist/, e.g. 'workers/tasks.js'. */
export function workerEntry(modulePath: string): string {
  const distRoot = import.meta.url.endsWith('.ts') ? new URL('../../dist/', import.meta.url) : new URL('../', import.meta.url);
  return fileURLToPath(new URL(modulePath, distRoot));
}
