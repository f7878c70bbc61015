// Lint: the recommended JavaScript and typescript-eslint rules, and the layers of src/ (docs/code-map.md).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Domain and infrastructure: what the procedures are built from, knowing nothing of HTTP or start-up. */
const DOMAIN = ['analytics', 'audit', 'auth', 'cache', 'errors', 'keys', 'obs', 'ratelimit', 'redis', 'storage', 'util', 'workers'].map((dir) => `./src/${dir}`);
/** Entry points: they start things, and nothing imports them but each other. */
const ENTRY = ['./src/main.ts', './src/cli.ts', './src/cli-migration.ts', './src/keygate.ts'];

/** The layers of src/, one zone per rule; docs/code-map.md states them in words. */
const layerZones = [
  {
    target: [...DOMAIN, './src/config.ts'],
    from: ['./src/routes', './src/server', './src/dashboard', './src/openapi', './src/validation', './src/wiring', ...ENTRY],
    message: 'Domain code does not know the HTTP edge or the wiring: take what it needs as a parameter.',
  },
  {
    target: ['./src/server', './src/validation', './src/dashboard'],
    from: './src/routes',
    except: ['./define.ts'],
    message: 'Outside routes/, only the contract (routes/define.ts) is known, not a procedure.',
  },
  {
    target: ['./src/routes', './src/server', './src/dashboard', './src/openapi', './src/validation'],
    from: './src/wiring',
    except: ['./services.ts'],
    message: 'The HTTP edge sees the Services interface (wiring/services.ts), never how it is built.',
  },
  {
    target: './src/routes',
    from: ['./src/server', './src/dashboard', './src/openapi', ...ENTRY],
    message: 'A procedure knows its services and the route contract, not the transport or other edges.',
  },
  {
    target: ['./src/openapi', './src/validation'],
    from: ['./src/server', './src/dashboard', ...ENTRY],
    message: 'The API description and its validators do not depend on the transport.',
  },
  {
    target: './src/wiring',
    from: ['./src/routes', './src/server', './src/dashboard', './src/openapi', ...ENTRY],
    message: 'Wiring builds the services; the entry points put them together with the server.',
  },
  {
    target: './src/shapes',
    from: './src',
    except: ['./shapes'],
    message: 'The answer shapes are plain data that every layer reads: they import nothing of keygate.',
  },
  {
    target: './web',
    from: './src',
    // The permission catalogue, and the response schemas its answer types are derived from (web/dashboard/answers.ts).
    except: ['./auth/catalogue.ts', './shapes/responses.ts', './routes/rootKeys/listRootKeys/response.ts'],
    message: 'The dashboard front end talks to the server over HTTP; it shares only the permission catalogue and the response schemas.',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-artifacts/', 'bench/results/', '.ab-*/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.json', 'test/tsconfig.json', 'bench/tsconfig.json', 'web/tsconfig.json'], noWarnOnMultipleProjects: true })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      // A leading underscore names what is left out on purpose (a rest sibling, an unused parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // Tests read JSON answers as any on purpose: the assertions are the type check.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
