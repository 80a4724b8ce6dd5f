// Lint: typescript-eslint (type-checked), React hooks, TanStack Query, and the import directions
// of DESIGN.md §2 as zones: each folder lists what it must not import.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import globals from 'globals';
import path from 'node:path';

/**
 * DESIGN.md §2's import directions, checked on the resolved path of every relative import:
 * a file in src/<from>/ may import only the src/ folders listed for it; features/<x> may not
 * import features/<y>. Package imports are checked by `packageBans` below.
 */
const allowed = {
  contract: ['contract'],
  spreadsheet: ['spreadsheet', 'contract'],
  workers: ['workers', 'spreadsheet', 'contract'],
  api: ['api', 'contract'],
  jobs: ['jobs', 'api', 'spreadsheet', 'contract'],
  components: ['components', 'contract'],
  features: ['features', 'jobs', 'api', 'components', 'spreadsheet', 'contract', 'workers'],
  app: ['app', 'features', 'jobs', 'api', 'components', 'contract'],
  server: ['server', 'spreadsheet', 'contract'],
};

const srcRoot = path.join(import.meta.dirname, 'src');

const directionsRule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.filename;
    const rel = path.relative(srcRoot, file).split(path.sep);
    const from = rel[0];
    if (rel.length < 2 || !(from in allowed)) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.relative(srcRoot, path.resolve(path.dirname(file), source)).split(path.sep);
      const to = target[0];
      if (to === '..' || target.length < 2) return;
      if (!allowed[from].includes(to)) {
        context.report({ node, message: `src/${from} must not import src/${to} (DESIGN.md §2: imports point downwards).` });
      } else if (from === 'features' && to === 'features' && rel[1] !== target[1]) {
        context.report({ node, message: `features/${rel[1]} must not import features/${target[1]}: features do not import each other; app/ composes them.` });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

const ui = ['react', 'react-dom', 'react/*', 'react-dom/*', '@tanstack/*', 'react-dropzone'];
const node = ['node:*', 'fs', 'path', 'better-sqlite3', 'fastify', '@fastify/*'];

function packageBans(folder, groups, message) {
  const pattern = Array.isArray(groups) ? { group: groups, message } : { regex: groups, message };
  return {
    files: [`src/${folder}/**/*.{ts,tsx}`],
    rules: { 'no-restricted-imports': ['error', { patterns: [pattern] }] },
  };
}

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
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { local: { rules: { directions: directionsRule } } },
    rules: { 'local/directions': 'error' },
  },
  packageBans('contract', '^(?!zod(/|$)|vitest$|\\.)', 'src/contract imports zod only.'),
  packageBans('spreadsheet', [...ui, ...node], 'src/spreadsheet is pure: no React, no DOM, no Node built-ins.'),
  packageBans('workers', ui, 'The worker is a thin adapter without React.'),
  packageBans('server', ui, 'The sandbox does not import React.'),
  packageBans('jobs', [...ui, ...node], 'src/jobs has no React: pages read it through useSyncExternalStore.'),
  {
    files: ['e2e/**/*.ts', 'src/tooling/**/*.ts', 'src/bench/**/*.ts', '*.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
