import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { createMigration, foreignKey } from '../../../support/migrations.js';

describe('keys.migrateKeys → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'keys.migrateKeys', async () => ({
    migrationId: await createMigration(h), apiId: await h.createApi(), keys: [{ hash: foreignKey().hex }],
  }));
});
