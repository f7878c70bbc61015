/**
 * `bench:ab --sched` (bench/README.md, "what the event loop waits behind"): from `perf sched
 * timehist`, each time a server's event loop got a CPU, its wait since it was ready to run (woken,
 * or preempted), counted when 0.3 ms or more and put down to what had that CPU just before: another
 * thread of the same process, the idle task or anything else. The lines below are in perf's own
 * layout.
 */
import { describe, expect, it } from 'vitest';
import { waitsIn } from '../../bench/lib/sched.js';

const TIMEHIST = `           time    cpu  task name                       wait time  sch delay   run time
                        [tid/pid]                          (msec)     (msec)     (msec)
--------------- ------  ------------------------------  ---------  ---------  ---------
    1711.095318 [0000]  node[500/400]                       0.000      0.000      1.200
    1711.095672 [0000]  node[400]                           0.000      1.100      0.340
    1711.095709 [0000]  <idle>                              0.000      0.000      0.037
    1711.095728 [0001]  redis-server[77]                    0.000      0.021      0.345
    1711.095773 [0000]  node[400]                           0.037      0.400      0.064
    1711.095800 [0001]  node[400]                           0.010      0.350      0.020
    1711.095909 [0000]  kworker/0:1H-kb[54]                 0.064      0.000      0.135
    1711.095931 [0000]  node[400]                           0.000      0.020      0.202
    1711.096100 [0000]  node[600]                           0.000      0.900      0.100
    1711.096200 [0000]  node[401/400]                       0.000      0.000      0.500
    1711.096300 [0000]  node[400]                           0.000      0.500      0.100
`;

describe("bench:ab --sched: the event loop's waits", () => {
  it('counts every time the event loop got a CPU, and its long waits by what ran there before', () => {
    const waits = waitsIn(TIMEHIST, 400, 1);
    expect(waits.wakeups).toBe(5);
    // 1.1 ms behind thread 500 and 0.5 ms behind thread 401, both of process 400.
    expect(waits.own.count).toBe(2);
    expect(waits.own.ms).toBeCloseTo(1.6, 6);
    expect(waits.idle).toEqual({ count: 1, ms: 0.4 });
    // On CPU 1 behind redis-server; the 0.02 ms wait is too short to count; process 600's event loop is not this one.
    expect(waits.other).toEqual({ count: 1, ms: 0.35 });
  });

  it('gives its figures per second of the recording', () => {
    const waits = waitsIn(TIMEHIST, 400, 2);
    expect(waits.wakeups).toBe(2.5);
    expect(waits.own.count).toBe(1);
    expect(waits.own.ms).toBeCloseTo(0.8, 6);
  });
});
