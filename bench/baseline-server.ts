/**
 * The baseline: the least a uWS server can do per request on this machine. It reads the POST body
 * and answers a fixed 165-byte JSON (the size of a small verifyKey answer) inside cork, on
 * the native binary keygate itself loads (src/server/uws.ts), with the exclusive-port flag.
 * Usage: node --import tsx bench/baseline-server.ts PORT
 */
import { loadNativeUws } from '../src/server/uws.js';
import { listenOrExit } from './lib/uws-listen.js';

const FIXED = JSON.stringify({
  valid: true, code: 'VALID', keyId: 'key_2cGKbMxRyIzhCxo1Idjz8q', ownerId: 'user_123', remaining: 99,
  reset: 1735689600000, ratelimit: { limit: 100, remaining: 99 },
});
const port = Number(process.argv[2]);
const uws = loadNativeUws();
const app = uws.App();
app.any('/*', (res) => {
  let aborted = false;
  res.onAborted(() => { aborted = true; });
  res.onData((_chunk, isLast) => {
    if (!isLast || aborted) return;
    res.cork(() => { res.writeStatus('200 OK').writeHeader('content-type', 'application/json').end(FIXED); });
  });
});
listenOrExit(uws, app, port, 'baseline');
