/**
 * The writing scripts that commit a change, in a variant that also stores the change's audit
 * event (audit.ts) in the same call: the events hash is one more key (in the change's slot), the
 * event id and bytes two more arguments, and the event is written only when the script reports
 * that it changed something.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LuaScript } from '../../redis/scripts.js';

const LUA_DIR = fileURLToPath(new URL('../../../lua/', import.meta.url));

/** `changed`: a Lua expression over `__reply`, true when the script changed what it was asked to. */
function audited(name: string, changed: string): LuaScript {
  const source = readFileSync(`${LUA_DIR}${name}.lua`, 'utf8');
  const text = [
    'local __events = table.remove(KEYS)',
    'local __event = table.remove(ARGV)',
    'local __eventId = table.remove(ARGV)',
    'local __reply = (function()',
    source,
    'end)()',
    `if ${changed} then redis.call('HSET', __events, __eventId, __event) end`,
    'return __reply',
  ].join('\n');
  // Run once per call, as the plain variants are (a resend must not write a second time).
  return new LuaScript(`${name}+audit`, text, true);
}

export const auditedScripts = {
  /** record-cas.lua: -1 means the version differed and nothing was written. */
  recordCas: audited('record-cas', '__reply ~= -1'),
  /** credits-change.lua: status `ok` means the counter was set, patched or adjusted. */
  creditsChange: audited('credits-change', "__reply[1] == 'ok'"),
} as const;
