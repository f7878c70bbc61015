/**
 * Many clients at once on keep-alive connections, as an API fleet calls keygate: every answer goes
 * to the connection that asked, in the order asked, with its own request id, also when a busy
 * server holds answers and writes a turn's worth together (src/server/answer-batch.ts).
 */
import * as net from 'node:net';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';

interface Answer {
  status: number;
  requestIdHeader: string;
  body: any;
}

/** One keep-alive HTTP/1.1 connection: a request at a time, each answer read whole. */
class Connection {
  private buffer = Buffer.alloc(0);
  private waiting: ((answer: Answer) => void) | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (data: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      this.read();
    });
  }

  static open(port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  post(path: string, rootKey: string, body: string): Promise<Answer> {
    const answer = new Promise<Answer>((resolve) => { this.waiting = resolve; });
    this.socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${rootKey}\r\n`
      + `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    return answer;
  }

  close(): void {
    this.socket.destroy();
  }

  private read(): void {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const header = (name: string): string => head.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? '';
    const length = Number(header('content-length'));
    if (this.buffer.length < end + 4 + length) return;
    const body = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
    this.buffer = this.buffer.subarray(end + 4 + length);
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.({ status: Number(head[0]!.split(' ')[1]), requestIdHeader: header('x-request-id'), body });
  }
}

describe('many connections at once', () => {
  const h = useHarness();

  test('each of 100 connections gets the answers to its own verifications, in order', async () => {
    const apiId = await h.createApi('fleet');
    const keys: { keyId: string; key: string }[] = [];
    for (let i = 0; i < 25; i++) keys.push(await h.createKey({ apiId, name: `key ${i}` }));
    const port = Number(new URL(h.url).port);
    const connections = await Promise.all(Array.from({ length: 100 }, () => Connection.open(port)));
    const mismatches: string[] = [];
    const requestIds = new Set<string>();
    try {
      // Every connection's first request is written in the same turn, so the server reads many at once.
      await Promise.all(connections.map(async (connection, c) => {
        for (let n = 0; n < 12; n++) {
          // A key no connection asks for in the same place, and now and then one that does not exist.
          const unknown = (c + n) % 11 === 0;
          const expected = unknown ? undefined : keys[(c * 7 + n * 3) % keys.length]!;
          const key = expected?.key ?? `fleet_unknown_${c}_${n}`;
          const answer = await connection.post('/v2/keys.verifyKey', h.adminKey, JSON.stringify({ key }));
          const data = answer.body.data;
          const got = `${answer.status} ${data?.code} ${data?.keyId}`;
          const want = unknown ? '200 NOT_FOUND undefined' : `200 VALID ${expected!.keyId}`;
          if (got !== want) mismatches.push(`connection ${c}, request ${n}: got ${got}, wanted ${want}`);
          if (answer.requestIdHeader !== answer.body.meta.requestId) mismatches.push(`connection ${c}, request ${n}: header ${answer.requestIdHeader}, body ${answer.body.meta.requestId}`);
          requestIds.add(answer.body.meta.requestId);
        }
      }));
    } finally {
      for (const connection of connections) connection.close();
    }
    expect(mismatches).toEqual([]);
    expect(requestIds.size).toBe(100 * 12);
  });
});
