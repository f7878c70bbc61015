/**
 * Where hashing goes: SHA-256 (keygate's storage hash, base64) inline against a piscina pool, one
 * key per task and batches of 64, in this run. Standalone: `tsx bench/hashing.ts [--quick]`;
 * `npm run bench` runs it too and prints the table.
 */
import { createHash, hash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

export interface HashRow { readonly variant: string; readonly usPerHash: number; readonly callP50Us?: number; readonly callP99Us?: number }

const KEY = 'bk_3ZbQk7Yq2Lr9Xw4Tn8Vp1Hs6Jd0Fg5McAbCdEf'; // 40 bytes, keygate's key shape
const now = (): number => Number(process.hrtime.bigint());
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;

function inline(variant: string, fn: (k: string) => string, n: number, reps: number): HashRow {
  for (let i = 0; i < 50_000; i++) fn(KEY + (i & 7));
  const r: number[] = [];
  let sink = 0;
  for (let k = 0; k < reps; k++) {
    const t = now();
    for (let i = 0; i < n; i++) sink += fn(KEY).length;
    r.push((now() - t) / n / 1000);
  }
  if (sink === -1) console.log(sink);
  return { variant, usPerHash: median(r) };
}

async function pooled(variant: string, threads: number, batch: number, inFlight: number, durMs: number, reps: number): Promise<HashRow> {
  const pool = new Piscina({ filename: fileURLToPath(new URL('./hash-worker.mjs', import.meta.url)), minThreads: threads, maxThreads: threads });
  const payload = batch === 1 ? KEY : Array.from({ length: batch }, (_, i) => KEY.slice(0, 38) + String(i).padStart(2, '0'));
  const once = async (ms: number): Promise<{ us: number; p50: number; p99: number }> => {
    let hashes = 0;
    const lat: number[] = [];
    const t0 = now();
    const end = t0 + ms * 1e6;
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (now() < end) {
        const t = now();
        await pool.run(payload);
        lat.push(now() - t);
        hashes += batch;
      }
    }));
    lat.sort((a, b) => a - b);
    return { us: (now() - t0) / hashes / 1000, p50: lat[lat.length >> 1]! / 1000, p99: lat[Math.floor(lat.length * 0.99)]! / 1000 };
  };
  await once(300);
  const rs: { us: number; p50: number; p99: number }[] = [];
  for (let k = 0; k < reps; k++) rs.push(await once(durMs));
  await pool.destroy();
  return { variant, usPerHash: median(rs.map((r) => r.us)), callP50Us: median(rs.map((r) => r.p50)), callP99Us: median(rs.map((r) => r.p99)) };
}

export async function runHashing(quick: boolean): Promise<HashRow[]> {
  const [n, reps, durMs] = quick ? [200_000, 3, 700] : [500_000, 5, 2000];
  const rows: HashRow[] = [
    inline('inline crypto.hash(sha256, k, base64) (keygate)', (k) => hash('sha256', k, 'base64'), n, reps),
    inline('inline createHash(sha256).update(k).digest(base64)', (k) => createHash('sha256').update(k).digest('base64'), n, reps),
  ];
  for (const threads of [1, 2]) {
    rows.push(await pooled(`piscina ${threads} thread(s), one key per task, awaited one by one`, threads, 1, 1, durMs, quick ? 1 : 3));
    rows.push(await pooled(`piscina ${threads} thread(s), one key per task, 256 in flight`, threads, 1, 256, durMs, quick ? 1 : 3));
    rows.push(await pooled(`piscina ${threads} thread(s), batches of 64, awaited one by one`, threads, 64, 1, durMs, quick ? 1 : 3));
    rows.push(await pooled(`piscina ${threads} thread(s), batches of 64, 8 in flight`, threads, 64, 8, durMs, quick ? 1 : 3));
  }
  return rows;
}

export function formatHashing(rows: readonly HashRow[]): string {
  const inlineUs = rows[0]!.usPerHash;
  const lines = ['| variant | µs per hash (median) | × inline | per call p50 / p99 µs |', '|---|---|---|---|'];
  for (const r of rows) {
    lines.push(`| ${r.variant} | ${r.usPerHash.toFixed(3)} | ${(r.usPerHash / inlineUs).toFixed(1)} | ${r.callP50Us === undefined ? '–' : `${r.callP50Us.toFixed(0)} / ${r.callP99Us!.toFixed(0)}`} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await runHashing(process.argv.includes('--quick'));
  console.log(formatHashing(rows));
}
