// `npm start`: builds the console when dist/ is missing or older than its sources, then serves.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const builtIndex = join(root, 'dist', 'index.html');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'server' || entry === 'bench' || entry === 'tooling') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function needsBuild(): boolean {
  if (!existsSync(builtIndex)) return true;
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) => join(root, p));
  const newestSource = Math.max(...sources.filter((p) => existsSync(p)).map(newestMtime));
  return newestSource > statSync(builtIndex).mtimeMs;
}

if (needsBuild()) {
  console.log('Building the console (first start or sources changed)…');
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn' });
}
await import('./main');
