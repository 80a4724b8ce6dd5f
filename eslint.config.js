// Lint: typescript-eslint (type-checked), React hooks, TanStack Query, and the import directions
// of DESIGN.md §2 as zones: each folder lists what it must not import.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import globals from 'globals';

/** Forbid imports into `folder` from any of `forbidden` (folder names under src/). */
function zone(folder, forbidden, extra = []) {
  return {
    files: [`src/${folder}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbidden.map((name) => ({
              group: [`**/${name}/**`, `**/${name}`],
              message: `src/${folder} must not import src/${name} (DESIGN.md §2: imports point downwards).`,
            })),
            ...extra,
          ],
        },
      ],
    },
  };
}

const ui = ['react', 'react-dom', 'react/*', 'react-dom/*', '@tanstack/*'];
const node = ['node:*', 'fs', 'path', 'better-sqlite3', 'fastify', '@fastify/*'];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', '.data'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'No raw HTML (DESIGN.md §7).' },
      ],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/use-*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...pluginQuery.configs['flat/recommended'],
  zone('contract', ['spreadsheet', 'workers', 'api', 'features', 'components', 'app', 'server'], [
    { group: ['*', '!zod', '!zod/*', '!./*', '!../contract/*'], message: 'src/contract imports zod only.' },
  ]),
  zone('spreadsheet', ['workers', 'api', 'features', 'components', 'app', 'server'], [
    { group: [...ui, ...node], message: 'src/spreadsheet is pure: no React, no DOM, no Node built-ins.' },
  ]),
  zone('workers', ['api', 'features', 'components', 'app', 'server']),
  zone('api', ['spreadsheet', 'workers', 'features', 'components', 'app', 'server']),
  zone('components', ['api', 'features', 'app', 'server', 'workers']),
  zone('features', ['app', 'server'], [
    { group: ['../*', '!../../*'], message: 'Features do not import each other; app/ composes them.' },
  ]),
  zone('server', ['workers', 'api', 'features', 'components', 'app'], [
    { group: ui, message: 'The sandbox does not import React.' },
  ]),
  {
    files: ['e2e/**/*.ts', 'src/tooling/**/*.ts', 'src/bench/**/*.ts', '*.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
