// `npm run bench`: runs every src/bench/*.bench.ts in turn, each in its own process so one
// benchmark's memory does not skew the next. Each prints a markdown table and writes
// bench-results/<name>.json; `npm run bench -- xlsx` runs only the ones whose name matches, and
// any further arguments (`--runs 3`) are handed to each bench.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv[2]?.startsWith('-') ? undefined : process.argv[2];
const forwarded = process.argv.slice(filter ? 3 : 2);
const benches = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => !filter || name.includes(filter))
  .sort();

console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`);
let failed = 0;
for (const bench of benches) {
  console.log(`## ${bench.replace('.bench.ts', '')}\n`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', `${dir}/${bench}`, ...forwarded], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
  console.log();
}
if (benches.length === 0) console.log('No benchmarks match.');
process.exit(failed > 0 ? 1 : 0);
