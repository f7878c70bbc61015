/**
 * The reference: the least a verification server does, on the same uWS binary as keygate
 * (exclusive-port listen). It checks the root key, parses the JSON body, hashes the key (SHA-256),
 * looks the hash up in a Map of the keys it was given, and answers in Unkey's envelope, written as
 * keygate writes its answers (held to the end of a busy turn). No logs, metrics, analytics, limits
 * or permissions: what "the speed of the engine" allows a verification, measured in the same rounds
 * as keygate and the baseline (`npm run bench:ab -- --reference`).
 * Usage: KEYGATE_BENCH_ROOT_KEY=… node --import tsx bench/minimal-verify-server.ts PORT BODIES_FILE
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadNativeUws } from '../src/server/uws.js';
import { listenOrExit } from './lib/uws-listen.js';

const port = Number(process.argv[2]);
const authorization = `Bearer ${process.env.KEYGATE_BENCH_ROOT_KEY ?? ''}`;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const keys = new Map<string, { keyId: string }>();
for (const line of readFileSync(process.argv[3]!, 'utf8').split('\n').filter(Boolean)) {
  keys.set(sha256((JSON.parse(line) as { key: string }).key), { keyId: `key_${keys.size}` });
}

let answered = 0;
let answeredThisTurn = 0;
let holding = false;
const held: (() => void)[] = [];
const endTurn = (): void => {
  for (const write of held) write();
  held.length = 0;
  holding = answeredThisTurn >= 32;
  answeredThisTurn = 0;
};
const uws = loadNativeUws();
const app = uws.App();
app.post('/v2/keys.verifyKey', (res, req) => {
  const allowed = req.getHeader('authorization') === authorization;
  let aborted = false;
  res.onAborted(() => { aborted = true; });
  const chunks: Buffer[] = [];
  res.onData((chunk, isLast) => {
    chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (!isLast || aborted) return;
    let status = '200 OK';
    let body: string;
    if (!allowed) [status, body] = ['401 Unauthorized', '{"error":"unauthorized"}'];
    else {
      const found = keys.get(sha256((JSON.parse(Buffer.concat(chunks).toString()) as { key: string }).key));
      const data = found ? { valid: true, code: 'VALID', keyId: found.keyId } : { valid: false, code: 'NOT_FOUND' };
      body = JSON.stringify({ meta: { requestId: `req_${++answered}` }, data });
    }
    const write = (): void => { res.writeStatus(status).writeHeader('content-type', 'application/json').end(body); };
    // As keygate does on a busy loop (src/server/answer-batch.ts): after a turn of 32 answers or
    // more, the next turn's answers are written together when it ends, so the client is woken once.
    if (answeredThisTurn++ === 0) setImmediate(endTurn);
    if (holding) held.push(() => { if (!aborted) res.cork(write); });
    else write(); // inside uWS's callback the socket is corked already
  });
});
listenOrExit(uws, app, port, 'reference');
