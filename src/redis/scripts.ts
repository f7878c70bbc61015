/**
 * Lua scripts of lua/*.lua: read once at start-up, called by SHA (EVALSHA) and sent whole (EVAL)
 * only when the node answers NOSCRIPT (a new, restarted or failed-over node), which also loads it
 * there for the next call. Every key of one call must hash to one Cluster slot (the callers' key
 * builders put one hash tag in all of them).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import type { RedisClient } from './client.js';

const LUA_DIR = fileURLToPath(new URL('../../lua/', import.meta.url));

export class LuaScript {
  readonly sha: string;

  constructor(readonly name: string, readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Loads `lua/<name>.lua` (relative to the package, from src/ and from dist/ alike). */
  static load(name: string): LuaScript {
    return new LuaScript(name, readFileSync(`${LUA_DIR}${name}.lua`, 'utf8'));
  }

  /**
   * Runs the script with `keys` and `args` on the node that owns the keys' slot (a Cluster routes
   * by the first key). Replies are returned as ioredis gives them (Buffers with `asBuffers`).
   */
  async run(client: RedisClient | Redis, keys: readonly (string | Buffer)[], args: readonly (string | Buffer | number)[], asBuffers = false): Promise<unknown> {
    const send = (command: 'EVALSHA' | 'EVAL', first: string): Promise<unknown> => asBuffers
      ? client.callBuffer(command, first, keys.length, ...keys, ...args)
      : client.call(command, first, keys.length, ...keys, ...args);
    try {
      return await send('EVALSHA', this.sha);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return send('EVAL', this.source);
    }
  }
}
