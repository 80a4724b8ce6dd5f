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
 * import features/<y>; features take only types from a worker's protocol (`workers/*-protocol.ts`),
 * never its internals; the results thread is part of jobs/ (jobs/thread/), and only jobs/thread
 * imports its worker entry, and the server never imports the thread; only spreadsheet/read-table.ts opens the XLSX engine (spreadsheet/xlsx/),
 * its one door (benches measure the engine itself); server/console (the product's server) and
 * server/sandbox (the stand-in for the service) never import each other: only the entries beside
 * them (app.ts, main.ts, …) compose both. Package imports are checked by `packageBans` below.
 */
const allowed = {
  contract: ['contract'],
  spreadsheet: ['spreadsheet', 'contract'],
  workers: ['workers', 'spreadsheet', 'contract'],
  api: ['api', 'contract'],
  components: ['components', 'contract'],
  jobs: ['jobs', 'api', 'spreadsheet', 'contract'],
  features: ['features', 'jobs', 'api', 'components', 'spreadsheet', 'contract', 'workers'],
  app: ['app', 'features', 'jobs', 'api', 'components', 'contract'],
  server: ['server', 'jobs', 'api', 'spreadsheet', 'contract', 'workers'],
};

const srcRoot = path.join(import.meta.dirname, 'src');

/** `import type {…}` or an import whose every specifier is `type X`: erased, no code loaded. */
const isTypeOnly = (node) =>
  node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type'));

const directionsRule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.filename;
    const rel = path.relative(srcRoot, file).split(path.sep);
    const from = rel[0];
    if (rel.length < 2 || !(from in allowed)) return {};
    const check = (node, source, typeOnly) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.relative(srcRoot, path.resolve(path.dirname(file), source)).split(path.sep);
      const to = target[0];
      if (to === '..' || target.length < 2) return;
      const intoXlsx = to === 'spreadsheet' && target[1] === 'xlsx' && target.length > 2;
      const insideXlsx = from === 'spreadsheet' && rel[1] === 'xlsx';
      if (intoXlsx && !insideXlsx && rel.join('/') !== 'spreadsheet/read-table.ts') {
        context.report({ node, message: `Only spreadsheet/read-table.ts imports the XLSX engine (spreadsheet/xlsx/): read workbooks through readTable.` });
      } else if (from === 'jobs' && /\.test\.ts$/.test(file) && to === 'server') {
        // Allowed: the engine's tests run it against the sandbox in-process.
      } else if (from === 'features' && to === 'workers' && (!/-protocol(\.ts)?$/.test(target.at(-1)) || !typeOnly)) {
        context.report({ node, message: `features may import only types from a worker protocol (workers/*-protocol.ts), not ${target.join('/')}: talk to the worker through its messages.` });
      } else if (to === 'jobs' && target[1] === 'thread' && /-worker(\.ts)?$/.test(target.at(-1)) && !(from === 'jobs' && rel[1] === 'thread')) {
        context.report({ node, message: `jobs/thread/${target.at(-1)} is the results thread's entry, started with new Worker(): talk to it through its client (jobs/thread/results-reader.ts).` });
      } else if (from === 'server' && to === 'jobs' && target[1] === 'thread') {
        context.report({ node, message: `The console's server runs the job engine (its machine, runner and storage), not the browser's results thread: take what both need from src/jobs beside the machine, not src/jobs/thread/${target.at(-1)}.` });
      } else if (from === 'server' && ['jobs', 'api', 'workers'].includes(to) && rel[1] !== 'console') {
        context.report({ node, message: `Only the console's server (src/server/console) runs the job engine: src/server/${rel[1]} must not import src/${to}.` });
      } else if (from === 'server' && to === 'server' && rel[1] === 'sandbox' && target[1] === 'console') {
        context.report({ node, message: `The sandbox knows nothing of the console's server (DESIGN.md §2): src/server/sandbox must not import src/server/console.` });
      } else if (from === 'server' && to === 'server' && rel[1] === 'console' && target[1] === 'sandbox') {
        context.report({ node, message: `The console's server reaches the service (the sandbox or the real one) over its API only; src/server/app.ts composes the two (DESIGN.md §2).` });
      } else if (!allowed[from].includes(to)) {
        context.report({ node, message: `src/${from} must not import src/${to} (DESIGN.md §2: imports point downwards).` });
      } else if (from === 'features' && to === 'features' && rel[1] !== target[1]) {
        context.report({ node, message: `features/${rel[1]} must not import features/${target[1]}: features do not import each other; app/ composes them.` });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value, isTypeOnly(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
    };
  },
};

/**
 * The job engine runs in Node as well as in the browser: its machine (jobs/job-machine.ts), its
 * loops (jobs/runner/) and the rest of src/jobs, outside its browser adapters (the
 * IndexedDB storage, job-runtime.ts that wires the browser's storage, Web Locks and
 * notifications, and the results thread's worker entry and its page-side client), src/jobs
 * touches no browser global, directly or through globalThis.
 */
const browserGlobals = ['window', 'self', 'document', 'navigator', 'location', 'indexedDB', 'IDBKeyRange', 'BroadcastChannel', 'localStorage', 'sessionStorage', 'Notification', 'Worker'];
const engineMessage = 'The job engine (its machine, its loops in jobs/runner/) runs in Node too: only its browser adapters (jobs/storage/indexeddb-*, jobs/job-runtime.ts, jobs/thread/*-worker.ts and its client) touch browser globals; take what you need as a dependency.';
const engineWithoutBrowser = {
  files: ['src/jobs/**/*.ts'],
  ignores: ['src/jobs/storage/indexeddb-*.ts', 'src/jobs/job-runtime.ts', 'src/jobs/thread/*-worker.ts', 'src/jobs/thread/results-reader.ts'],
  rules: {
    'no-restricted-globals': ['error', ...browserGlobals.map((name) => ({ name, message: engineMessage }))],
    'no-restricted-properties': ['error', ...browserGlobals.map((property) => ({ object: 'globalThis', property, message: engineMessage }))],
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

/** An import of e2e/… or src/bench/…, by any relative path. */
const E2E = '(^|/)e2e(/|$)';
const BENCH = '(^|/)bench(/|$)';

function harnessBans(files, regexes, message) {
  return { files, rules: { 'no-restricted-imports': ['error', { patterns: regexes.map((regex) => ({ regex, message })) }] } };
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
  packageBans('server', [...ui, '!@tanstack/query-core'], 'The servers do not import React; the console server\'s job runner polls with TanStack Query\'s core.'),
  packageBans('jobs', [...ui, ...node, '!@tanstack/query-core'], 'src/jobs has no React: pages read it through useSyncExternalStore; its poll loop uses TanStack Query\'s core.'),
  // The console server's storage adapter is the one file of src/jobs that opens SQLite.
  { files: ['src/jobs/storage/sqlite-*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ui, message: 'src/jobs has no React.' }] }] } },
  engineWithoutBrowser,
  // The harnesses share src/tooling and never each other: the e2e specs and the benches both
  // import src/tooling (browser, server processes), and src/tooling imports neither.
  harnessBans(['e2e/**/*.ts'], [BENCH], 'e2e does not import the benches: what both need lives in src/tooling.'),
  harnessBans(['src/bench/**/*.ts'], [E2E], 'The benches do not import e2e: what both need lives in src/tooling.'),
  harnessBans(['src/tooling/**/*.ts'], [E2E, BENCH], 'src/tooling is below e2e and the benches: it imports neither.'),
);
