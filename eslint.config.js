// ESLint: typescript-eslint's type-checked recommended rules over src/, mappings/ and test/; the
// scripts (.mjs, .js) with the JavaScript rules and Node's globals. `npm run lint` runs it with
// Prettier's check and knip.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.stryker-tmp/**', 'reports/**', 'coverage/**', '.test-logs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts', 'vitest.mutation.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // fastify's handlers and the interfaces that take a promise are async without an await: kept
    rules: {
      '@typescript-eslint/require-await': 'off',
      // `const { a: _a, ...rest } = x` leaves a field out by name
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // a caught value passed on as it came (whatever was thrown is answered by the one error path)
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // a test reads what servers answer as untyped JSON on purpose: its assertions are the check
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // node:http's and vitest's callbacks take async functions in tests: a rejection fails the test
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
);
