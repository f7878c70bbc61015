/**
 * GET /openapi.json: the document is built and serialized once, when the server is created; each
 * request only writes the same bytes. Answered synchronously inside the uWS callback, so no
 * abort handler or cork is needed (server/app.ts has the lifecycle rules).
 */
import type { Config } from '../config.js';
import type { Route } from '../routes/define.js';
import { newId } from '../util/ids.js';
import { buildOpenApiDocument } from './document.js';
import { OPENAPI_PATH } from './service-paths.js';

export { OPENAPI_PATH };

/** The part of uWS's HttpResponse this needs, so only src/server/ imports uWebSockets.js. */
interface DocumentResponse {
  writeStatus(status: string): DocumentResponse;
  writeHeader(key: string, value: string): DocumentResponse;
  end(body: string): unknown;
}

/** The part of uWS's TemplatedApp this needs. */
export interface GetRoutes {
  get(pattern: string, handler: (res: DocumentResponse) => void): unknown;
}

export function registerOpenApi(app: GetRoutes, routes: readonly Route[], config: Pick<Config, 'docsUrl'>): void {
  const body = JSON.stringify(buildOpenApiDocument(routes, { docsUrl: config.docsUrl }));
  app.get(OPENAPI_PATH, (res) => {
    res.writeStatus('200 OK').writeHeader('content-type', 'application/json').writeHeader('x-content-type-options', 'nosniff')
      .writeHeader('x-request-id', newId('req')).end(body);
  });
}
