// The type-aware lint of the whole workspace: one TypeScript program (tsconfig.test.json holds
// every source and test file), so the rules that need types see what `tsc` sees.
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'

const ENGINE_DRIVERS = {
  paths: [
    { name: 'better-sqlite3', message: 'Only store/sqlite/ talks to SQLite.' },
    { name: 'pg', message: 'Only store/postgres/ talks to PostgreSQL.' },
    { name: 'pg-protocol', message: 'Only store/postgres/ talks to PostgreSQL.' },
  ],
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'bench/**',
      'examples/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      // Generated client code checked into fixtures is compiled by its own tests, not linted.
      '**/test/fixtures/**',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        project: './tsconfig.test.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX },
    settings: {
      // Without a parser for the files it follows, no-cycle silently sees no imports at all.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      // Another package is reached through its built declarations; a cycle cannot cross packages.
      'import-x/ignore': ['/dist/'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: './tsconfig.test.json' }),
      ],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // A cycle through value imports runs modules before their dependencies are initialised;
      // type-only imports are erased and do not count.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'no-restricted-imports': ['error', ENGINE_DRIVERS],
    },
  },
  {
    files: ['packages/hub/src/store/sqlite/**', 'packages/hub/src/store/postgres/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Tests and their support start real databases and proxies of their own.
    files: ['packages/*/test/**', '**/*.test.ts', '**/*.case.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
)
