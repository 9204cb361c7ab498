// ESLint: typescript-eslint's recommended rules with type information (recommendedTypeChecked)
// over the whole tree: src, test, bench, scripts, examples. `npm run lint`; .ci/run fails on any
// finding. Layout is Prettier's (.prettierrc.json); none of these rules concerns it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.build/', '.bench/', '.tmp/', 'data/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's describe/it return a promise that the runner itself awaits; a test file calls
      // them at top level by design.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      // Destructuring names a field to leave it out of the rest: `{ id: _, ...event }`.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // `async` without `await` marks a function that implements a Promise-returning interface
      // (a route's handle, Kysely's driver and migration provider, the fakes of DNS, fetch and
      // sleep in tests): it turns a throw into the rejection its callers handle.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The plain-JavaScript scripts are outside tsconfig.json (it has no allowJs): no types to check
    // them against. Node's globals are declared for no-undef, which TypeScript covers in .ts files.
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', performance: 'readonly', console: 'readonly' } },
  },
  {
    // Migrations are frozen snapshots: they take Kysely<any>, as Kysely's migration guide does,
    // so that they never depend on today's Database type (src/store/database.ts).
    files: ['src/store/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests read response bodies and files as parsed JSON (`any`: test/support/http.ts), whose
    // shape the OpenAPI check (test/support/openapi-check.ts) and the test's own assertions
    // establish; typing each body again would restate the OpenAPI document in every test.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Tests match what the CLI writes to a terminal, whose colour and line-erase codes begin with ESC.
      'no-control-regex': 'off',
    },
  },
);
