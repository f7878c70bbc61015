/**
 * How bench/'s own uWS servers listen: 127.0.0.1 with the exclusive-port flag, as keygate does, so a
 * port already taken fails instead of being shared; they print "listening" (bench/lib/procs.ts
 * waits for it) or exit 1.
 */
import type { TemplatedApp } from 'uWebSockets.js';
import type { Uws } from '../../src/server/uws.js';

export function listenOrExit(uws: Uws, app: TemplatedApp, port: number, name: string): void {
  const exclusive = (uws as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;
  const listen = app.listen as unknown as (h: string, p: number, o: number, cb: (t: unknown) => void) => void;
  listen.call(app, '127.0.0.1', port, exclusive, (token) => {
    if (!token) {
      process.stderr.write(`${name} cannot listen on 127.0.0.1:${port}\n`);
      process.exit(1);
    }
    process.stdout.write(`${name} listening on ${port}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
}
