import { writeFileSync } from 'node:fs';
import { seedScenarioKeys } from './lib/api.js';
import { SCENARIOS } from './scenarios.js';
const [url, rootKey, out, n] = process.argv.slice(2);
const seed = await seedScenarioKeys(url!, rootKey!, Number(n ?? 20000), 100, () => undefined);
const sc = SCENARIOS.find((x) => x.id === (process.env.SCENARIO ?? 'verifyKey'))!;
writeFileSync(out!, sc.bodies(seed).join('\n') + '\n');
