/**
 * The Lua scripts of the Redis storage (lua/<name>.lua; each file's header gives KEYS, ARGV and
 * the reply). Loaded once at import; run through LuaScript (EVALSHA, EVAL on NOSCRIPT). Every
 * call passes keys of one slot only (keys.ts puts them under one tag).
 */
import { APPEND_RETRY_MS } from '../types.js';
import { LuaScript } from '../../redis/scripts.js';

/**
 * `once`: a script whose resent call (ioredis resends after a reconnect or a Cluster slot refresh)
 * would write twice, or would answer a write that succeeded as failed (record-cas: the version
 * has moved on), runs once per call (redis/scripts.ts). The index scripts are idempotent by the
 * claimant's id already, and credits reads write nothing.
 */
export const scripts = {
  recordCas: LuaScript.load('record-cas', { once: true }),
  indexClaim: LuaScript.load('index-claim'),
  indexRelease: LuaScript.load('index-release'),
  creditsRead: LuaScript.load('credits-change'),
  creditsChange: LuaScript.load('credits-change', { once: true }),
  // A refused append is tried again with the same call id for up to APPEND_RETRY_MS.
  verificationsAppend: LuaScript.load('verifications-append', { once: true, onceTtlMs: APPEND_RETRY_MS + 60_000 }),
} as const;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
