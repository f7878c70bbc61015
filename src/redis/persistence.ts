/**
 * The persistence check keygate runs against each Redis master when it connects: an acknowledged
 * write is only as durable as the master's AOF settings make it. With AOF off, a restarted master
 * comes back with its last snapshot (or empty): keys created since then are gone, revoked or
 * deleted keys verify again. CONFIG may be renamed or disabled (managed Redis): then the check
 * says it could not look, and does not fail unless REDIS_REQUIRE_AOF asks for certainty.
 */
import { Cluster, type Redis } from 'ioredis';
import type { Logger } from '../obs/log.js';
import type { RedisClient } from './client.js';

export interface MasterPersistence {
  /** host:port as keygate reaches it. */
  readonly node: string;
  /** `appendonly` (yes/no), or null when CONFIG GET was refused. */
  readonly appendonly: string | null;
  readonly appendfsync: string | null;
  /** Why the settings could not be read. */
  readonly error?: string;
}

const nameOf = (node: Redis): string => `${node.options.host ?? '127.0.0.1'}:${node.options.port ?? 6379}`;

async function readMaster(node: Redis): Promise<MasterPersistence> {
  try {
    // One pattern (not two names) so that Redis 6, whose CONFIG GET takes one argument, answers too.
    const flat = await node.call('CONFIG', 'GET', 'append*') as string[];
    const value = (name: string): string | null => {
      const at = flat.indexOf(name);
      return at >= 0 && at % 2 === 0 ? flat[at + 1] ?? null : null;
    };
    const appendonly = value('appendonly');
    if (appendonly === null) return { node: nameOf(node), appendonly: null, appendfsync: null, error: 'CONFIG GET did not list appendonly' };
    return { node: nameOf(node), appendonly, appendfsync: value('appendfsync') };
  } catch (err) {
    return { node: nameOf(node), appendonly: null, appendfsync: null, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The AOF settings of every master the client reaches now (a Cluster: each master it knows). */
async function readPersistence(client: RedisClient): Promise<MasterPersistence[]> {
  const masters = client instanceof Cluster ? client.nodes('master') : [client];
  return Promise.all(masters.map(readMaster));
}

/**
 * Logs what the masters' settings mean for acknowledged writes. Returns the problems (AOF off, or
 * not checkable) so that REDIS_REQUIRE_AOF can refuse to start on them.
 */
export async function checkPersistence(client: RedisClient, log: Logger): Promise<string[]> {
  const problems: string[] = [];
  for (const master of await readPersistence(client)) {
    const { node, appendonly, appendfsync } = master;
    if (appendonly === null) {
      problems.push(`could not check the persistence settings of Redis master ${node} (${master.error})`);
      log.warn({ redis: node, err: master.error }, 'could not check whether AOF is on at this Redis master (CONFIG GET refused: renamed or disabled?); keygate\'s acknowledged writes are only durable with appendonly yes');
    } else if (appendonly !== 'yes') {
      problems.push(`Redis master ${node} has AOF off (appendonly ${appendonly})`);
      log.warn({ redis: node, appendonly }, 'AOF is off at this Redis master (appendonly no): writes keygate acknowledged are lost if it restarts (new keys vanish, revoked or deleted keys verify again); set appendonly yes');
    } else if (appendfsync === 'no') {
      log.warn({ redis: node, appendfsync }, 'AOF is on but appendfsync is no: a crash of the machine (not only of Redis) can lose the last ~30 s of acknowledged writes; everysec or always bound that');
    } else {
      log.info({ redis: node, appendonly, appendfsync }, 'Redis persistence checked: AOF is on');
    }
  }
  return problems;
}
