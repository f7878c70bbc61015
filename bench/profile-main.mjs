/**
 * keygate's main.js under V8's sampling profiler, for `npm run bench:profile`: on SIGUSR2 it
 * profiles the process (every 100 µs of the event loop; with PROFILE_KIND=heap or promoted, its
 * allocations) for PROFILE_SECONDS and writes the profile to PROFILE_OUT. The inspector runs in
 * this process; nothing listens on a port.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const session = new Session();
session.connect();
if (process.env.PROFILE_KIND === 'heap' || process.env.PROFILE_KIND === 'promoted') {
  // Every allocation sampled (one per 4 KiB on average), also of objects collected since: what
  // the event loop allocates, not what stays. 'promoted' leaves out what a young-generation
  // collection freed: what outlived the young generation (kept, or freed later by a full one).
  const promoted = process.env.PROFILE_KIND === 'promoted';
  await session.post('HeapProfiler.enable');
  process.on('SIGUSR2', () => {
    void session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !promoted })
      .then(() => setTimeout(() => {
        void session.post('HeapProfiler.stopSampling').then(({ profile }) => writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile)));
      }, Number(process.env.PROFILE_SECONDS) * 1000));
  });
} else {
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  process.on('SIGUSR2', () => {
    void session.post('Profiler.start').then(() => setTimeout(() => {
      void session.post('Profiler.stop').then(({ profile }) => writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile)));
    }, Number(process.env.PROFILE_SECONDS) * 1000));
  });
}
// main.js serves only when it is the entry script.
process.argv[1] = new URL('../dist/main.js', import.meta.url).pathname;
await import('../dist/main.js');
