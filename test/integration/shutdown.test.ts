/**
 * SIGTERM drains: 200 verifications whose requests have reached keygate but are not complete yet
 * (half of each body sent) when the signal arrives are all answered, and then the process exits 0;
 * no request line is lost, also when stdout's reader lags behind at that moment.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { spawnKeygate } from '../support/process.js';

describe('graceful shutdown', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-shutdown-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const rootKey = 'shutdown-root-key-0123456789abcdef';

  test('SIGTERM during 200 in-flight verifications answers every one of them, then exits 0', async () => {
    const server = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY: rootKey });
    const call = (p: string, body: unknown) => callKeygate(server.url, `/v2/${p}`, body, { rootKey });
    const apiId = (await call('apis.createApi', { name: 'drain' })).body.data.apiId;
    const { key } = (await call('keys.createKey', { apiId })).body.data;
    const { port } = new URL(server.url);

    const body = JSON.stringify({ key });
    const half = Math.floor(body.length / 2);
    const sockets: Socket[] = [];
    const answers: Promise<string>[] = [];
    for (let i = 0; i < 200; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      await once(socket, 'connect');
      let text = '';
      socket.on('data', (chunk) => { text += String(chunk); });
      answers.push(once(socket, 'close').then(() => text));
      socket.write(`POST /v2/keys.verifyKey HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${rootKey}\r\n`
        + `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`);
      sockets.push(socket);
    }
    // Every request is in keygate (headers read, answer pending) before the signal, and the signal
    // has been taken before the bodies are finished.
    const inFlight = async (): Promise<number> => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return Number(/^keygate_requests_in_flight (\d+)$/m.exec(text)?.[1] ?? -1);
    };
    for (let waited = 0; (await inFlight()) < 200 && waited < 20_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await inFlight()).toBe(200);
    const exited = server.kill('SIGTERM');
    for (let waited = 0; !server.output().includes('shutting down') && waited < 10_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.output()).toContain('shutting down');
    for (const socket of sockets) socket.end(body.slice(half));

    const texts = await Promise.all(answers);
    const statuses = texts.map((t) => /^HTTP\/1\.1 (\d{3})/.exec(t)?.[1] ?? 'none');
    expect(statuses.map((s, i) => [s, i]).filter(([s]) => s !== '200')).toEqual([]);
    expect(texts.every((t) => t.includes('"code":"VALID"'))).toBe(true);
    expect(await exited).toBe(0);
    // And none of their request lines is lost at the exit.
    const ids = texts.map((t) => /"requestId":"(req_[A-Za-z0-9]+)"/.exec(t)?.[1]);
    expect(ids.every((id) => id !== undefined)).toBe(true);
    const logged = new Set([...server.output().matchAll(/"requestId":"(req_[A-Za-z0-9]+)","procedure":"keys\.verifyKey"/g)].map((m) => m[1]));
    expect(ids.filter((id) => !logged.has(id!))).toEqual([]);
  }, 60_000);

  test('SIGTERM while stdout is not being read: the exit waits for every request line to be written', async () => {
    const server = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY: rootKey });
    const call = (p: string, body: unknown) => callKeygate(server.url, `/v2/${p}`, body, { rootKey });
    const apiId = (await call('apis.createApi', { name: 'lagging-stdout' })).body.data.apiId;
    const { key } = (await call('keys.createKey', { apiId })).body.data;
    // The log collector stops reading: the pipe fills and keygate holds the lines it could not write.
    server.process.stdout!.pause();
    const ids: string[] = [];
    for (let wave = 0; wave < 40; wave++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => call('keys.verifyKey', { key })));
      for (const answer of answers) ids.push(answer.body.meta.requestId as string);
    }
    const exited = server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    server.process.stdout!.resume();
    expect(await exited).toBe(0);
    const logged = new Set([...server.output().matchAll(/"requestId":"(req_[A-Za-z0-9]+)","procedure":"keys\.verifyKey"/g)].map((m) => m[1]));
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
  }, 60_000);
});
