/**
 * The Lua scripts of the Redis storage (lua/<name>.lua; each file's header gives KEYS, ARGV and
 * the reply). Loaded once at import; run through LuaScript (EVALSHA, EVAL on NOSCRIPT). Every
 * call passes keys of one slot only (keys.ts puts them under one tag).
 */
import { LuaScript } from '../../redis/scripts.js';

export const scripts = {
  recordCas: LuaScript.load('record-cas'),
  indexClaim: LuaScript.load('index-claim'),
  indexRelease: LuaScript.load('index-release'),
  creditsChange: LuaScript.load('credits-change'),
  verificationsAppend: LuaScript.load('verifications-append'),
} as const;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
