/**
 * One variant of `npm run bench:hot-path` (bench/hot-path.ts): a keygate build started in this
 * process (argv: its dist folder, the scenario, keys, identities), seeded over real HTTP, whose
 * verifyKey route is then driven in a loop through a stand-in for uWS's request and response
 * objects: the whole JavaScript path of a verification, with no socket and no load generator.
 * Commands on stdin ("run <seconds>", "quit"); one JSON result per run on fd 3. Its stdout (the
 * keygate log) goes to /dev/null, as a deployment's would go to a collector.
 */
import { writeFileSync, writeSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { seedScenarioKeys } from './lib/api.js';
import { readCpu, usPerRequest } from './lib/cpu.js';

const [dist, scenario, keysText, identitiesText] = process.argv.slice(2) as [string, string, string, string];
const ROOT = `hot-path-root-${process.pid}`;
const PATH = '/v2/keys.verifyKey';
/** Requests started before waiting for the answers, like wrk's connections. */
const IN_FLIGHT = 100;

const load = <T>(module: string): Promise<T> => import(pathToFileURL(`${dist}/${module}`).href) as Promise<T>;
type Services = unknown;
type Handler = (res: FakeResponse, req: FakeRequest) => void;
const { loadConfig } = await load<{ loadConfig(env: NodeJS.ProcessEnv): unknown }>('config.js');
const { startKeygate } = await load<{ startKeygate(config: unknown): Promise<{ url: string; services: Services; close(): Promise<void> }> }>('keygate.js');
const { routes } = await load<{ routes: unknown[] }>('routes/index.js');
const { createServer } = await load<{ createServer(services: Services, routes: unknown[], uws: unknown): unknown }>('server/app.js');

const config = loadConfig({ ...process.env, PORT: '0', ROOT_KEY: ROOT });
const keygate = await startKeygate(config);
const seeded = await seedScenarioKeys(keygate.url, ROOT, Number(keysText), Number(identitiesText), () => undefined, scenario === 'limits' ? 'limited' : 'plain');
const keys = scenario === 'one' ? seeded.plainKeys.slice(0, 1) : scenario === 'limits' ? seeded.limitedKeys : seeded.plainKeys;

/** uWS's HttpRequest as keygate reads it: the headers wrk sends. */
class FakeRequest {
  constructor(private readonly headers: readonly (readonly [string, string])[]) {}
  forEach(each: (name: string, value: string) => void): void {
    for (const [name, value] of this.headers) each(name, value);
  }
  getHeader(name: string): string {
    return this.headers.find(([n]) => n === name)?.[1] ?? '';
  }
  getCaseSensitiveMethod(): string { return 'POST'; }
  getMethod(): string { return 'post'; }
  getUrl(): string { return PATH; }
  getQuery(): string { return ''; }
}

let answered = 0;
let failed = 0;
/** Read from every answer as uWS reads it: else V8 may skip building parts of an answer nobody reads. */
let lastChars = 0;
const ADDRESS = new TextEncoder().encode('127.0.0.1').buffer;

/** A status line of 200: '2', '0', '0' at its start. */
const isOk = (status: string | Uint8Array): boolean => typeof status === 'string' ? status.startsWith('200')
  : status[0] === 0x32 && status[1] === 0x30 && status[2] === 0x30;

/** uWS's HttpResponse: keeps the callbacks, counts the answers. */
class FakeResponse {
  onDataHandler: ((chunk: ArrayBuffer, isLast: boolean) => void) | null = null;
  /** As keygate gives it: text, or bytes (its status lines are encoded once, src/server/http-status.ts). */
  private status: string | Uint8Array = '';
  onAborted(): this { return this; }
  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): this { this.onDataHandler = handler; return this; }
  writeStatus(status: string | Uint8Array): this { this.status = status; return this; }
  writeHeader(): this { return this; }
  end(body: string | Uint8Array): this {
    answered++;
    if (body.length > 0) lastChars += typeof body === 'string' ? body.charCodeAt(body.length - 1) : body[body.length - 1]!;
    if (!isOk(this.status)) failed++;
    return this;
  }
  cork(write: () => void): this { write(); return this; }
  getRemoteAddressAsText(): ArrayBuffer { return ADDRESS; }
}

const handlers = new Map<string, Handler>();
const noop = (): unknown => app;
const app: Record<string, unknown> = new Proxy({}, {
  get: (_t, name) => (name === 'post' ? (path: string, handler: Handler) => { handlers.set(path, handler); return app; } : noop),
});
createServer(keygate.services, routes, { App: () => app });
const verify = handlers.get(PATH)!;

const bodies = keys.map((key) => new TextEncoder().encode(JSON.stringify({ key })).buffer);
const requests = bodies.map((body) => new FakeRequest([
  ['host', '127.0.0.1:8080'], ['authorization', `Bearer ${ROOT}`], ['content-type', 'application/json'], ['content-length', String(body.byteLength)],
]));
const responses = Array.from({ length: IN_FLIGHT }, () => new FakeResponse());
let next = 0;

/** Sends `count` verifications (the bodies in turn), one per stand-in response, and waits for all their answers. */
async function wave(count: number): Promise<void> {
  const expected = answered + count;
  for (let r = 0; r < count; r++) {
    const i = next++ % bodies.length;
    verify(responses[r]!, requests[i]!);
    responses[r]!.onDataHandler!(bodies[i]!, true);
  }
  // Answers after a Redis round trip come later; the timers (log flush, analytics hand-over) run here too.
  do await new Promise((resolve) => setImmediate(resolve)); while (answered < expected);
}

/** Drives verifyKey for `seconds`, in waves of IN_FLIGHT. */
async function run(seconds: number): Promise<void> {
  answered = 0;
  failed = 0;
  const cpuBefore = readCpu(process.pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) await wave(responses.length);
  const elapsedS = (performance.now() - started) / 1000;
  const cpu = usPerRequest(cpuBefore, readCpu(process.pid), answered);
  writeSync(3, `${JSON.stringify({ perSecond: answered / elapsedS, ...cpu, failed, lastChars })}\n`);
}

/** HOT_PATH_PROFILE=<file>: the first measured run under V8's sampling profiler (every 50 µs), written there. */
async function profiled(seconds: number): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 50 });
  await session.post('Profiler.start');
  await run(seconds);
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.env.HOT_PATH_PROFILE!, JSON.stringify(profile));
  session.disconnect();
}

/**
 * Every key verified once before the driver's warm-up: a key's first verification builds its hot
 * entry, and at 20,000 keys with limits, two variants sharing the CPU were still building in their
 * first measured rounds.
 */
async function verifyEveryKeyOnce(): Promise<void> {
  for (let sent = 0; sent < bodies.length; sent += responses.length) await wave(Math.min(responses.length, bodies.length - sent));
  if (failed > 0) throw new Error(`${failed} of the keys' first verifications were not 200`);
}

await verifyEveryKeyOnce();
writeSync(3, `${JSON.stringify({ ready: true })}\n`);
let runs = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const [command, arg] = line.split(' ');
  // The first run is the driver's warm-up; the second is profiled when asked.
  if (command === 'run') await (++runs === 2 && process.env.HOT_PATH_PROFILE ? profiled(Number(arg)) : run(Number(arg)));
  else break;
}
await keygate.close();
process.exit(0);
