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
      parserOptions: {
        // The .mjs scripts are outside tsconfig.json (it has no allowJs): the project service
        // gives them a default program of their own.
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs', 'bench/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // node:test's describe/it return a promise that the runner itself awaits; a test file calls
      // them at top level by design.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
    },
  },
  {
    // Node's globals in the plain-JavaScript scripts (TypeScript checks names in the .ts files).
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', performance: 'readonly', console: 'readonly' } },
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
    },
  },
);
