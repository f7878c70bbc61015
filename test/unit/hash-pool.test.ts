/**
 * The piscina pool of src/workers/pool.ts with real worker threads, running the compiled worker
 * entry (dist/workers/tasks.js, built by `npm test`'s pretest), and HASH_WORKERS.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { ServiceUnavailableError } from '../../src/errors/api-error.js';
import { createLogger } from '../../src/obs/log.js';
import { buildServices, closeServices } from '../../src/wiring/build.js';
import { HashPool, tasksFile } from '../../src/workers/pool.js';
import { slowHash } from '../support/migrations.js';

describe('hash pool', () => {
  const open: HashPool[] = [];
  const pool = (threads: number, maxWaiting?: number): HashPool => {
    const p = new HashPool(threads, maxWaiting);
    open.push(p);
    return p;
  };
  afterEach(async () => { await Promise.all(open.splice(0).map((p) => p.close())); });

  it('runs the compiled worker entry from dist/ when this module is TypeScript', () => {
    expect(tasksFile()).toMatch(/\/dist\/workers\/tasks\.js$/);
    expect(existsSync(tasksFile())).toBe(true);
  });

  it('verifies every algorithm on a worker thread, starting threads at the first task', async () => {
    const p = pool(1);
    expect(p.stats()).toEqual({ threads: 0, completed: 0, inFlight: 0 });
    for (const algorithm of ['bcrypt', 'scrypt', 'argon2id'] as const) {
      const encoded = slowHash(algorithm, 'right');
      expect(await p.verifySecret({ algorithm, encoded, secret: 'right' })).toBe(true);
      expect(await p.verifySecret({ algorithm, encoded, secret: 'wrong' })).toBe(false);
    }
    expect(p.stats()).toEqual({ threads: 1, completed: 6, inFlight: 0 });
  });

  it('keeps the event loop free while a hash is computed', async () => {
    const p = pool(1);
    // Cost 10: tens of milliseconds in bcryptjs. Inline, the timer could only fire afterwards.
    const encoded = bcrypt.hashSync('s', 10);
    let timerFiredFirst = false;
    let done = false;
    setTimeout(() => { timerFiredFirst = !done; }, 1);
    expect(await p.verifySecret({ algorithm: 'bcrypt', encoded, secret: 's' })).toBe(true);
    done = true;
    expect(timerFiredFirst).toBe(true);
  });

  it('answers 503 beyond its queue instead of queueing without bound', async () => {
    const p = pool(1, 1);
    const encoded = bcrypt.hashSync('s', 8);
    const task = { algorithm: 'bcrypt' as const, encoded, secret: 's' };
    const running = [p.verifySecret(task), p.verifySecret(task)];
    await expect(p.verifySecret(task)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(await Promise.all(running)).toEqual([true, true]);
    // Room again once they finished.
    expect(await p.verifySecret(task)).toBe(true);
  });

  it('close lets a running task finish; afterwards tasks are refused', async () => {
    const p = pool(2);
    const task = { algorithm: 'bcrypt' as const, encoded: bcrypt.hashSync('s', 8), secret: 's' };
    const running = p.verifySecret(task);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await p.close();
    expect(await running).toBe(true);
    await expect(p.verifySecret(task)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(p.stats().threads).toBe(0);
  });

  it('one pool per services object, sized by its HASH_WORKERS, closed with it', async () => {
    const dirs = [mkdtempSync(join(tmpdir(), 'keygate-pool-a-')), mkdtempSync(join(tmpdir(), 'keygate-pool-b-'))];
    const log = createLogger('silent');
    const [services, other] = await Promise.all(dirs.map((dir) => buildServices(loadConfig({ HASH_WORKERS: '3', DATA_DIR: dir }), log)));
    const open = new Set([services!, other!]);
    try {
      const p = services!.hashPool;
      expect(other!.hashPool).not.toBe(p);
      expect(p.threads).toBe(3);
      expect(p.stats()).toEqual({ threads: 0, completed: 0, inFlight: 0 });
      expect(await p.verifySecret({ algorithm: 'scrypt', encoded: slowHash('scrypt', 'k'), secret: 'k' })).toBe(true);
      expect(p.stats()).toEqual({ threads: 3, completed: 1, inFlight: 0 });
      open.delete(services!);
      await closeServices(services!);
      expect(p.stats().threads).toBe(0);
      await expect(p.verifySecret({ algorithm: 'scrypt', encoded: slowHash('scrypt', 'k'), secret: 'k' })).rejects.toBeInstanceOf(ServiceUnavailableError);
    } finally {
      await Promise.all([...open].map(closeServices));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('HASH_WORKERS', () => {
  it('defaults to 1 and takes 1 to 64', () => {
    expect(loadConfig({}).hashWorkers).toBe(1);
    expect(loadConfig({ HASH_WORKERS: '64' }).hashWorkers).toBe(64);
    for (const bad of ['0', '65', 'two', '1.5']) {
      expect(() => loadConfig({ HASH_WORKERS: bad })).toThrow(ConfigError);
      try { loadConfig({ HASH_WORKERS: bad }); } catch (err) { expect((err as ConfigError).problems.join()).toContain('HASH_WORKERS'); }
    }
  });
});
