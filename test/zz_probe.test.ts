import { test } from 'vitest';
import net from 'node:net';
import http from 'node:http';
import { useHarness } from '/work/main/test/support/harness.js';
const h = useHarness();
test('probe', async () => {
  const port = new URL(h.url).port;
  // CL big via fetch
  try {
    const r = await fetch(`${h.url}/v2/apis.createApi`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${h.adminKey}` }, body: JSON.stringify({ name: 'x'.repeat(1024*1024+10) }) });
    console.log(Date.now()%100000, 'fetch big', r.status, r.headers.get('x-request-id'), await r.text());
  } catch (e) { console.log(Date.now()%100000, 'fetch big error', e); }
  // chunked
  const res = await new Promise<string>((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/v2/apis.createApi', method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${h.adminKey}`, 'transfer-encoding': 'chunked' } });
    req.on('response', (res) => { let b=''; res.on('data', (c) => b+=c); res.on('end', () => resolve(`${res.statusCode} ${JSON.stringify(res.headers)} ${b}`)); });
    req.on('error', (e) => resolve('error ' + e.message));
    let sent = 0; const chunk = Buffer.alloc(64*1024, 0x61);
    const pump = () => { while (sent < 2*1024*1024) { sent += chunk.length; if (!req.write(chunk)) { req.once('drain', pump); return; } } req.end(); };
    pump();
  });
  console.log(Date.now()%100000, 'chunked', res);
  // small chunked valid
  const res2 = await new Promise<string>((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/v2/apis.createApi', method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${h.adminKey}`, 'transfer-encoding': 'chunked' } });
    req.on('response', (res) => { let b=''; res.on('data', (c) => b+=c); res.on('end', () => resolve(`${res.statusCode} ${b}`)); });
    req.on('error', (e) => resolve('error ' + e.message));
    req.write('{"name":'); req.write('"chunky"}'); req.end();
  });
  console.log(Date.now()%100000, 'chunked small', res2);
  // GET on known
  for (const m of ['GET','PUT','DELETE']) { const r = await h.call('apis.createApi', {name:'abc'}, { method: m }); console.log(Date.now()%100000, m, r.status, r.headers.get('allow'), JSON.stringify(r.body)); }
  const r404 = await h.call('nope.nope', {}); console.log(Date.now()%100000, '404', r404.status, JSON.stringify(r404.body));
  const ct = await h.call('apis.createApi', {}, { headers: { accept: '*/*' } }); console.log(Date.now()%100000, '400 */*', ct.headers.get('content-type'));
  const ct2 = await h.call('apis.getApi', {apiId:'api_nonexistent1'}, { headers: { accept: '*/*' } }); console.log(Date.now()%100000, '404 */*', ct2.headers.get('content-type'));
  const tp = await h.call('apis.createApi', undefined, { raw: '{"name":"abc"}', headers: { 'content-type': 'text/plain' } }); console.log(Date.now()%100000, 'text/plain', tp.status, JSON.stringify(tp.body));
  // abort
  await new Promise<void>((resolve) => {
    const s = net.connect(Number(port), '127.0.0.1', () => {
      s.write(`POST /v2/apis.createApi HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nAuthorization: Bearer ${h.adminKey}\r\n\r\n{"name":"ab`);
      setTimeout(() => { s.destroy(); resolve(); }, 50);
    });
  });
  await new Promise((r) => setTimeout(r, 100));
  const l = await h.call('liveness', undefined, { method: 'GET' }); console.log(Date.now()%100000, 'liveness', l.status, JSON.stringify(l.body));
});
