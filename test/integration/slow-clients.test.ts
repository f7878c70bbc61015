/**
 * Slow and broken clients: 10,000 idle connections, slow-body senders, and clients that leave
 * mid-request or mid-response; keygate keeps answering everyone else meanwhile, and once the
 * idle connections are gone (closed by the server's idle timeout) their memory is given back.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { spawnKeygate } from '../support/process.js';

const rssMiB = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function open(port: number, first?: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => { /* the server may reset it; that is part of the test */ });
  await once(socket, 'connect');
  if (first) socket.write(first);
  return socket;
}

describe('slow and broken clients', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-slow-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const rootKey = 'slow-clients-root-key-0123456789';

  test('10,000 idle connections and slow or vanishing clients do not stop others; memory comes back', async () => {
    const server = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY: rootKey });
    const port = Number(new URL(server.url).port);
    const pid = server.process.pid!;
    const call = (p: string, body: unknown) => callKeygate(server.url, `/v2/${p}`, body, { rootKey });
    try {
      const apiId = (await call('apis.createApi', { name: 'slow' })).body.data.apiId;
      const { key } = (await call('keys.createKey', { apiId })).body.data;
      const verify = async () => (await call('keys.verifyKey', { key })).body.data?.code;
      for (let i = 0; i < 200; i++) await verify(); // warm
      const rssBefore = rssMiB(pid);

      const idle: Socket[] = [];
      for (let i = 0; i < 10_000; i++) {
        // Half say nothing, half stop in the middle of their headers.
        idle.push(await open(port, i % 2 === 0 ? undefined : 'POST /v2/keys.verifyKey HTTP/1.1\r\nHost: x\r\n'));
      }
      // Slow bodies: complete headers, then one byte now and then.
      const body = JSON.stringify({ key });
      const slow = await Promise.all(Array.from({ length: 50 }, () => open(port,
        `POST /v2/keys.verifyKey HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${rootKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body[0]}`)));
      // Vanishing clients: mid-request and right after sending a whole request.
      for (let i = 0; i < 100; i++) (await open(port, `POST /v2/keys.verifyKey HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{"ke`)).destroy();
      for (let i = 0; i < 100; i++) {
        (await open(port, `POST /v2/keys.verifyKey HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${rootKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`)).destroy();
      }

      // Everyone else is still served, promptly.
      const started = Date.now();
      const codes = await Promise.all(Array.from({ length: 200 }, verify));
      expect(codes.every((c) => c === 'VALID')).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
      const rssLoaded = rssMiB(pid);

      // The slow senders finish their bodies and get their answers.
      const answers = slow.map((s) => { let text = ''; s.on('data', (c) => { text += String(c); }); return () => text; });
      for (const s of slow) s.write(body.slice(1));
      // Waits for the answers themselves (a busy machine may take a while), then checks each.
      for (let waited = 0; !answers.every((a) => a().includes('\r\n\r\n')) && waited < 15_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answers.every((a) => a().startsWith('HTTP/1.1 200'))).toBe(true);

      // The idle ones are closed by the server (idle timeout) or by us; memory is given back.
      const closedByServer = await Promise.race([
        Promise.all(idle.map((s) => once(s, 'close'))).then(() => true),
        new Promise((resolve) => setTimeout(() => resolve(false), 20_000)),
      ]);
      for (const s of idle) s.destroy();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const rssAfter = rssMiB(pid);
      console.log(`slow clients: rss ${rssBefore.toFixed(1)} → ${rssLoaded.toFixed(1)} (10k idle) → ${rssAfter.toFixed(1)} MiB; idle closed by server: ${closedByServer}`);
      expect(closedByServer).toBe(true);
      expect(rssAfter - rssBefore).toBeLessThan(Math.max(20, (rssLoaded - rssBefore) / 2));
      expect(await verify()).toBe('VALID');
    } finally {
      await server.kill();
    }
  }, 90_000);
});
