/**
 * The written form of the document, docs/openapi.json: as a server with the default settings
 * serves it at GET /openapi.json (a server started with another DOCS_URL serves its own error
 * types). Written by `npm run openapi` (write.ts); test/openapi/ checks the file is current.
 */
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.js';
import { routes } from '../routes/index.js';
import { buildOpenApiDocument } from './document.js';

/** The same relative URL from src/openapi/ and dist/openapi/: both are two folders below the repository. */
export const DOCUMENT_FILE = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));

/** The file's text: the document the defaults build, indented for reading and for diffs. */
export function documentText(): string {
  return `${JSON.stringify(buildOpenApiDocument(routes, { docsUrl: loadConfig({}).docsUrl }), null, 2)}\n`;
}
