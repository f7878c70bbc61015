/**
 * Wraps a running keygate's key store so that the next write that gives a key permissions or roles
 * (KeyStore.modifyAttaching or insertAttaching, after the request's lookups) waits at a gate first:
 * a test can then run a permission or role delete to completion in between.
 */
import type { KeyStore, Storage } from '../../src/storage/types.js';
import { gate, type Gate } from './gate.js';

const STOPPABLE = new Set<PropertyKey>(['modifyAttaching', 'insertAttaching']);

export function stopKeyWrites(storage: Storage): { next(): Gate } {
  const inner = storage.keys;
  let armed: Gate | null = null;
  const stopping = new Proxy(inner, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== 'function') return value;
      if (!STOPPABLE.has(prop)) return value.bind(target);
      return async (...args: unknown[]) => {
        const stop = armed;
        armed = null;
        if (stop) await stop.pass();
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
  (storage as { keys: KeyStore }).keys = stopping;
  return { next: () => (armed = gate()) };
}
