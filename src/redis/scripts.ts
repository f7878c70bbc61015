/**
 * Lua scripts of lua/*.lua: read once at start-up, called by SHA (EVALSHA) and sent whole (EVAL)
 * only when the node answers NOSCRIPT (a new, restarted or failed-over node), which also loads it
 * there for the next call. Every key of one call must hash to one Cluster slot (the callers' key
 * builders put one hash tag in all of them).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import type { RedisClient } from './client.js';

const LUA_DIR = fileURLToPath(new URL('../../lua/', import.meta.url));

/**
 * How long a script's reply is remembered for a resend of the same call, by default. ioredis
 * resends a command whose connection closed before its reply (a reconnect, a Cluster slot refresh)
 * within a few seconds; a short time keeps the remembered replies few (one per limit call and per
 * credit spend). A caller that retries on its own for longer gives a longer time (load's options).
 */
export const ONCE_TTL_MS = 10_000;

/**
 * Wraps a script so that one call has one effect however often it arrives: the last key names
 * the call (added by LuaScript, see callKeys) and is taken off KEYS before the script runs; a call
 * seen before answers its first reply again, without running.
 */
function runsOnce(source: string, ttlMs: number): string {
  return [
    'local __once = table.remove(KEYS)',
    "local __seen = redis.call('GET', __once)",
    'if __seen then return cmsgpack.unpack(__seen) end',
    'local __reply = (function()',
    source,
    'end)()',
    `redis.call('SET', __once, cmsgpack.pack(__reply), 'PX', ${ttlMs})`,
    'return __reply',
  ].join('\n');
}

/** A random part per process and a count: call ids no other process or call repeats. */
const PROCESS_TAG = randomBytes(9).toString('base64url');
let calls = 0;

export class LuaScript {
  readonly sha: string;

  /** What is sent: the script's text, wrapped by runsOnce for a `once` script. */
  readonly source: string;

  /**
   * `once`: the script writes, and a resent call must not write twice (runsOnce); its reply is
   * remembered for `onceTtlMs`.
   */
  constructor(readonly name: string, text: string, readonly once = false, onceTtlMs = ONCE_TTL_MS) {
    this.source = once ? runsOnce(text, onceTtlMs) : text;
    this.sha = createHash('sha1').update(this.source).digest('hex');
  }

  /** Loads `lua/<name>.lua` (relative to the package, from src/ and from dist/ alike). */
  static load(name: string, options: { once?: boolean; onceTtlMs?: number } = {}): LuaScript {
    return new LuaScript(name, readFileSync(`${LUA_DIR}${name}.lua`, 'utf8'), options.once === true, options.onceTtlMs);
  }

  /**
   * The keys to send for one call: for a `once` script, `keys` plus a key naming this call, in
   * the first key's slot (its `{hash tag}` and what precedes it, so the key prefix too). Made once
   * per call and used for every send of it (EVALSHA, EVAL on NOSCRIPT).
   */
  callKeys<K extends string | Buffer>(keys: readonly K[], callId?: string): (K | string)[] {
    if (!this.once) return keys as K[];
    const first = String(keys[0] ?? '');
    const tagEnd = first.indexOf('}');
    if (first.indexOf('{') < 0 || tagEnd < 0) throw new Error(`${this.name}: its first key has no hash tag: ${first}`);
    return [...keys, `${first.slice(0, tagEnd + 1)}:once:${callId ?? `${PROCESS_TAG}:${(calls++).toString(36)}`}`];
  }

  /**
   * Runs the script with `keys` and `args` on the node that owns the keys' slot (a Cluster routes
   * by the first key). Replies are returned as ioredis gives them (Buffers with `asBuffers`).
   * `callId`, for a `once` script: the caller's own id for this call, given again when it tries
   * the same call again after a failure (a timed-out call may have run), so it runs once in all.
   * Unique in the whole deployment (a random part); by default each run is a call of its own.
   */
  async run(client: RedisClient | Redis, keys: readonly (string | Buffer)[], args: readonly (string | Buffer | number)[], asBuffers = false, callId?: string): Promise<unknown> {
    const sent = this.callKeys(keys, callId);
    const send = (command: 'EVALSHA' | 'EVAL', first: string): Promise<unknown> => asBuffers
      ? client.callBuffer(command, first, sent.length, ...sent, ...args)
      : client.call(command, first, sent.length, ...sent, ...args);
    try {
      return await send('EVALSHA', this.sha);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return send('EVAL', this.source);
    }
  }
}
