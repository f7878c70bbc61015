/**
 * Transport behaviour shared by every procedure: routing (404/405), body reading (JSON, content
 * type, size limit, aborted uploads), request ids and the error content type.
 */
import * as http from 'node:http';
import * as net from 'node:net';
import { describe, expect, test } from 'vitest';
import { expectError } from '../support/auth-cases.js';
import { callKeygate, useHarness, type CallResult } from '../support/harness.js';

const MIB = 1024 * 1024;

interface RawResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/**
 * One request with node:http, so the body can be sent with Content-Length or chunked, and the
 * answer is read as soon as it arrives even if the server stops reading the body.
 */
function rawPost(url: string, path: string, headers: Record<string, string | number>, body: Buffer, mode: 'content-length' | 'chunked'): Promise<RawResult> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({
      host: hostname, port: Number(port), path, method: 'POST', agent: false,
      headers: mode === 'chunked'
        ? { ...headers, 'transfer-encoding': 'chunked' }
        : { ...headers, 'content-length': body.length },
    });
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => {
        let parsed: unknown = text;
        try { parsed = JSON.parse(text); } catch { /* left as text */ }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
      res.on('error', reject);
    });
    // The server may close while the body is still being written; only the answer matters.
    req.on('error', (err) => { if (!answered) reject(err); });
    if (mode === 'content-length') {
      req.end(body);
      return;
    }
    const chunkSize = 64 * 1024;
    let offset = 0;
    const pump = (): void => {
      while (offset < body.length && !answered && !req.destroyed) {
        const chunk = body.subarray(offset, offset + chunkSize);
        offset += chunk.length;
        if (!req.write(chunk)) { req.once('drain', pump); return; }
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

/** A JSON body of exactly `size` bytes: {"name":"aaa…"}. */
const jsonBodyOfSize = (size: number): Buffer => Buffer.from(`{"name":"${'a'.repeat(size - 11)}"}`);

describe('transport', () => {
  const h = useHarness();
  const auth = () => ({ 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${h.adminKey}` });

  describe('routing', () => {
    test('an unknown procedure → 404 JSON envelope', async () => {
      const res = await h.call('keys.doesNotExist', {});
      expectError(res, 404, 'user/bad_request/procedure_not_found');
      expect(res.body.error.title).toBe('Not Found');
      expect(res.body.error.detail).toContain('/v2/keys.doesNotExist');
      expect(res.headers.get('content-type')).toBe('application/json');
    });

    test('a path outside /v2 → 404 JSON envelope, without needing a root key', async () => {
      const res = await callKeygate(h.url, '/api/keys', {}, { rootKey: null });
      expectError(res, 404, 'user/bad_request/procedure_not_found');
    });

    for (const method of ['GET', 'PUT', 'DELETE']) {
      test(`${method} on a known procedure → 405 with Allow: POST`, async () => {
        const res = await h.call('apis.createApi', { name: 'payments' }, { method });
        expectError(res, 405, 'user/bad_request/method_not_allowed');
        expect(res.body.error.title).toBe('Method Not Allowed');
        expect(res.body.error.detail).toContain(method);
        expect(res.headers.get('allow')).toBe('POST');
      });
    }

    test('a 405 has no side effect: PUT on createIdentity creates nothing', async () => {
      const res = await h.call('identities.createIdentity', { externalId: 'via-get' }, { method: 'PUT' });
      expect(res.status).toBe(405);
      expect((await h.call('identities.createIdentity', { externalId: 'via-get' })).status).toBe(200);
    });
  });

  describe('request body', () => {
    test('a body that is not JSON → 400 invalid_input with an issue at body', async () => {
      const res = await h.call('apis.createApi', undefined, { raw: '{"name": "payments"' });
      expectError(res, 400, 'unkey/application/invalid_input');
      expect(res.body.error.title).toBe('Bad Request');
      expect(res.body.error.detail).toContain('JSON');
      expect(res.body.error.errors).toHaveLength(1);
      expect(res.body.error.errors[0].location).toBe('body');
      expect(typeof res.body.error.errors[0].message).toBe('string');
    });

    test('an empty body → 400', async () => {
      const res = await h.call('apis.createApi', undefined, { raw: '' });
      expectError(res, 400, 'unkey/application/invalid_input');
    });

    test('a JSON body sent as text/plain → 400 naming the content-type header', async () => {
      const res = await h.call('apis.createApi', undefined, { raw: '{"name":"payments"}', headers: { 'content-type': 'text/plain' } });
      expectError(res, 400, 'unkey/application/invalid_input');
      expect(res.body.error.detail).toContain('application/json');
      expect(res.body.error.errors.length).toBeGreaterThan(0);
      const issue = res.body.error.errors[0];
      expect(issue.location.toLowerCase()).toContain('content-type');
      expect(issue.message).toContain('text/plain');
      expect(issue.fix).toContain('Content-Type: application/json');
    });

    test('application/json with a charset parameter is accepted', async () => {
      const res = await h.call('apis.createApi', { name: 'charset' }, { headers: { 'content-type': 'application/json; charset=utf-8' } });
      expect(res.status).toBe(200);
      expect(res.body.data.apiId).toMatch(/^api_/);
    });

    test('a body over 1 MiB with Content-Length → 413, answered without reading it', async () => {
      const res = await rawPost(h.url, '/v2/apis.createApi', auth(), jsonBodyOfSize(MIB + 1), 'content-length');
      expect(res.status).toBe(413);
      expect(res.body.error.status).toBe(413);
      expect(res.body.error.title).toBe('Request Entity Too Large');
      expect(res.body.error.type).toBe('https://unkey.com/docs/errors/user/bad_request/request_body_too_large');
      expect(res.body.error.errors[0].location).toBe('body');
      expect(res.body.meta.requestId).toMatch(/^req_/);
      expect(res.headers['x-request-id']).toBe(res.body.meta.requestId);
    });

    test('headers over 16 KiB in all → 431 envelope; just under is served', async () => {
      const tooLong = await h.call('apis.createApi', { name: 'hdr' }, { headers: { 'x-padding': 'p'.repeat(16 * 1024) } });
      expect(tooLong.status).toBe(431);
      expect(tooLong.body.error).toMatchObject({ status: 431, title: 'Request Header Fields Too Large', type: 'https://unkey.com/docs/errors/user/bad_request/request_header_fields_too_large' });
      expect(tooLong.body.meta.requestId).toMatch(/^req_/);
      const fine = await h.call('apis.createApi', { name: 'hdr' }, { headers: { 'x-padding': 'p'.repeat(12 * 1024) } });
      expect(fine.status).toBe(200);
    });

    test('headers far beyond the limit (more than the HTTP engine buffers) reset that connection only', async () => {
      await expect(h.call('apis.createApi', { name: 'hdr' }, { headers: { 'x-padding': 'p'.repeat(300 * 1024) } })).rejects.toThrow();
      expect((await h.call('apis.createApi', { name: 'after' })).status).toBe(200);
    });

    test('a chunked body that grows over 1 MiB → 413', async () => {
      const res = await rawPost(h.url, '/v2/apis.createApi', auth(), jsonBodyOfSize(2 * MIB), 'chunked');
      expect(res.status).toBe(413);
      expect(res.body.error.status).toBe(413);
      expect(res.body.error.type).toBe('https://unkey.com/docs/errors/user/bad_request/request_body_too_large');
      expect(res.headers['x-request-id']).toBe(res.body.meta.requestId);
    });

    test('a body of exactly 1 MiB is read (and then fails validation, not the size limit)', async () => {
      const res = await rawPost(h.url, '/v2/apis.createApi', auth(), jsonBodyOfSize(MIB), 'content-length');
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('https://unkey.com/docs/errors/unkey/application/invalid_input');
      expect(res.body.error.errors.map((e: any) => e.location)).toContain('/properties/name/maxLength');
    });

    test('a small chunked body is read like any other', async () => {
      const res = await rawPost(h.url, '/v2/apis.createApi', auth(), Buffer.from('{"name":"chunked"}'), 'chunked');
      expect(res.status).toBe(200);
      expect(res.body.data.apiId).toMatch(/^api_/);
    });

    test('a client that disconnects mid-body does not take the server down', async () => {
      const { hostname, port } = new URL(h.url);
      for (let i = 0; i < 3; i++) {
        await new Promise<void>((resolve, reject) => {
          const socket = net.connect(Number(port), hostname, () => {
            socket.write(
              'POST /v2/apis.createApi HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
              `Authorization: Bearer ${h.adminKey}\r\nContent-Length: 1000\r\n\r\n{"name":"half`,
              () => setTimeout(() => { socket.destroy(); resolve(); }, 20),
            );
          });
          socket.on('error', reject);
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const live = await callKeygate(h.url, '/v2/liveness', undefined, { method: 'GET' });
      expect(live.status).toBe(200);
      expect(live.body.data.message).toBe("we're cooking");
      const after = await h.call('apis.createApi', { name: 'after-abort' });
      expect(after.status).toBe(200);
    });
  });

  describe('400 issues', () => {
    test('a missing property: location, message and fix', async () => {
      const res = await h.call('apis.createApi', {});
      expectError(res, 400, 'unkey/application/invalid_input');
      const [issue] = res.body.error.errors;
      expect(issue.location).toBe('/required');
      expect(issue.message).toContain('name');
      expect(issue.fix).toContain('name');
    });

    test('an unknown property: location, message and fix', async () => {
      const res = await h.call('apis.createApi', { name: 'payments', colour: 'blue' });
      expectError(res, 400, 'unkey/application/invalid_input');
      const issue = res.body.error.errors.find((e: any) => e.location === '/additionalProperties');
      expect(issue).toBeDefined();
      expect(issue.message).toContain('colour');
      expect(issue.fix).toContain('colour');
    });

    test('unknown fields: rejected on apis.createApi, tolerated on identities.createIdentity', async () => {
      const strict = await h.call('apis.createApi', { name: 'payments', unexpected: 1 });
      expect(strict.status).toBe(400);
      const tolerant = await h.call('identities.createIdentity', { externalId: 'tolerant', unexpected: 1 });
      expect(tolerant.status).toBe(200);
      expect(tolerant.body.data.identityId).toMatch(/^id_/);
    });
  });

  describe('request ids', () => {
    const expectRequestId = (res: { headers: Headers; body: any }): string => {
      const id = res.body.meta.requestId;
      expect(id).toMatch(/^req_[1-9A-HJ-NP-Za-km-z]+$/);
      expect(res.headers.get('x-request-id')).toBe(id);
      return id;
    };

    test('every answer carries meta.requestId and the same x-request-id header', async () => {
      const apiId = await h.createApi('ids');
      await h.createIdentity({ externalId: 'dup-for-ids' });
      const noPermission = await h.rootKey([]);
      const cases: [number, Promise<CallResult>][] = [
        [200, h.call('apis.getApi', { apiId })],
        [400, h.call('apis.getApi', { apiId: 'short' })],
        [400, h.call('apis.getApi', undefined, { raw: 'not json' })],
        [401, h.call('apis.getApi', { apiId }, { rootKey: null })],
        [403, h.call('apis.getApi', { apiId }, { rootKey: noPermission })],
        [404, h.call('apis.getApi', { apiId: 'api_doesnotexist000' })],
        [404, h.call('nothing.here', {})],
        [405, h.call('apis.getApi', undefined, { method: 'GET' })],
        [409, h.call('identities.createIdentity', { externalId: 'dup-for-ids' })],
      ];
      const ids = new Set<string>();
      for (const [status, pending] of cases) {
        const res = await pending;
        expect(res.status).toBe(status);
        ids.add(expectRequestId(res));
      }
      expect(ids.size).toBe(cases.length);
    });
  });

  describe('error content type', () => {
    test('Accept: application/json → application/json errors', async () => {
      const notFound = await h.call('apis.getApi', { apiId: 'api_doesnotexist000' }, { headers: { accept: 'application/json' } });
      expect(notFound.status).toBe(404);
      expect(notFound.headers.get('content-type')).toBe('application/json');
      const unauthorized = await h.call('apis.getApi', { apiId: 'api_doesnotexist000' }, { rootKey: null, headers: { accept: 'application/json' } });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('content-type')).toBe('application/json');
    });

    test('Accept: */* → application/problem+json errors, with the same envelope', async () => {
      const notFound = await h.call('apis.getApi', { apiId: 'api_doesnotexist000' }, { headers: { accept: '*/*' } });
      expect(notFound.status).toBe(404);
      expect(notFound.headers.get('content-type')).toBe('application/problem+json');
      expectError(notFound, 404, 'unkey/data/api_not_found');
      const unauthorized = await h.call('apis.getApi', { apiId: 'api_doesnotexist000' }, { rootKey: null, headers: { accept: '*/*' } });
      expect(unauthorized.headers.get('content-type')).toBe('application/problem+json');
      const unknown = await h.call('nothing.here', {}, { headers: { accept: '*/*' } });
      expect(unknown.headers.get('content-type')).toBe('application/problem+json');
    });

    test('Accept: application/problem+json → application/problem+json errors', async () => {
      const res = await h.call('apis.getApi', { apiId: 'api_doesnotexist000' }, { headers: { accept: 'application/problem+json' } });
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    });

    test('success answers are application/json whatever the Accept header', async () => {
      const res = await h.call('apis.createApi', { name: 'accepting' }, { headers: { accept: '*/*' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
    });

    test('schema-validation 400s are application/json even for Accept: */*', async () => {
      const res = await h.call('apis.createApi', { name: 'ab' }, { headers: { accept: '*/*' } });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json');
    });
  });
});
