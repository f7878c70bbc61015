/**
 * The dashboard's files, as `npm run build` leaves them in dist/dashboard/public (index.html and
 * content-hashed assets/). Read once at start-up into memory (they are small), each with its
 * content type, cache policy, ETag and a gzip copy; nothing is read from disk per request and no
 * path from a request ever reaches the file system.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Same depth from src/dashboard/ (vitest) and dist/dashboard/ (production): the build output. */
export const PUBLIC_DIR = fileURLToPath(new URL('../../dist/dashboard/public/', import.meta.url));

export interface StaticFile {
  readonly body: Buffer;
  readonly gzip: Buffer | null;
  readonly etag: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface StaticReply {
  readonly status: 200 | 304 | 404 | 503;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Everything the page may load comes from keygate itself; no inline script, no framing. uPlot and
 * Preact set styles through the CSSOM, which style-src does not restrict.
 */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

const COMMON = { 'x-content-type-options': 'nosniff' } as const;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function headersFor(path: string, etag: string): Record<string, string> {
  const ext = /\.[a-z0-9]+$/i.exec(path)?.[0].toLowerCase() ?? '';
  const type = TYPES[ext] ?? 'application/octet-stream';
  // Assets carry a content hash in their name: a new build means new names, so they never change.
  const immutable = path.startsWith('assets/');
  return {
    'content-type': type,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    etag,
    ...COMMON,
    ...(type.startsWith('text/html') ? PAGE_HEADERS : {}),
  };
}

export class DashboardFiles {
  private readonly files = new Map<string, StaticFile>();

  /** Reads the build output; a missing folder leaves the dashboard answering 503. */
  constructor(dir: string = PUBLIC_DIR) {
    if (!existsSync(join(dir, 'index.html'))) return;
    for (const file of filesUnder(dir)) {
      const path = relative(dir, file).split(sep).join('/');
      const body = readFileSync(file);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      const compressible = /\.(html|js|css|svg|json|map|txt)$/.test(path) && body.length > 512;
      this.files.set(path, { body, gzip: compressible ? gzipSync(body, { level: 9 }) : null, etag, headers: headersFor(path, etag) });
    }
  }

  get built(): boolean {
    return this.files.has('index.html');
  }

  /**
   * The answer for a GET of `path` relative to /dashboard/ ('' is the page itself). Only names
   * read at start-up are served; anything else is a 404.
   */
  serve(path: string, ifNoneMatch: string, acceptEncoding: string): StaticReply {
    if (!this.built) {
      return { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: 'The dashboard was not built: run `npm run build`.\n' };
    }
    const file = this.files.get(path === '' ? 'index.html' : path);
    if (!file) return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', ...COMMON }, body: 'Not found.\n' };
    if (ifNoneMatch !== '' && ifNoneMatch.split(',').some((tag) => tag.trim() === file.etag)) {
      return { status: 304, headers: { etag: file.etag, 'cache-control': file.headers['cache-control']! }, body: '' };
    }
    if (file.gzip && /\bgzip\b/.test(acceptEncoding)) {
      return { status: 200, headers: { ...file.headers, 'content-encoding': 'gzip', vary: 'accept-encoding' }, body: file.gzip };
    }
    return { status: 200, headers: file.gzip ? { ...file.headers, vary: 'accept-encoding' } : file.headers, body: file.body };
  }
}
