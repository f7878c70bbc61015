/**
 * Loads the native uWebSockets.js binary, and only that. The package we depend on
 * (@trufflesuite/uws-js-unofficial) silently falls back to a slow JavaScript shim when its binary
 * does not load; keygate refuses to run on it, so this loads the binary file directly and checks
 * that what it got is native code.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as UWS from 'uWebSockets.js';

export type Uws = typeof UWS;

export class NativeHttpUnavailableError extends Error {
  constructor(detail: string) {
    super(
      `keygate cannot start: the native uWebSockets.js HTTP engine did not load (${detail}). ` +
      'keygate does not fall back to the slow JavaScript implementation. Run it on Linux, macOS ' +
      'x64 or arm64 with Node.js 20 and glibc >= 2.31, and reinstall dependencies with `npm ci`.',
    );
    this.name = 'NativeHttpUnavailableError';
  }
}

export function binaryPath(packageDir: string): string {
  return join(packageDir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
}

/** `packageDir` defaults to the installed uWebSockets.js package; tests point it elsewhere. */
export function loadNativeUws(packageDir?: string): Uws {
  const require = createRequire(import.meta.url);
  let dir = packageDir;
  if (dir === undefined) {
    try {
      dir = dirname(require.resolve('uWebSockets.js/package.json'));
    } catch {
      throw new NativeHttpUnavailableError('the uWebSockets.js package is not installed');
    }
  }
  const file = binaryPath(dir);
  let uws: Uws;
  try {
    uws = require(file) as Uws;
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new NativeHttpUnavailableError(`${file}: ${reason}`);
  }
  if (typeof uws.App !== 'function' || !Function.prototype.toString.call(uws.App).includes('[native code]')) {
    throw new NativeHttpUnavailableError(`${file} did not provide a native App`);
  }
  return uws;
}
