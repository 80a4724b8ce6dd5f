// Initial JavaScript of the console (DESIGN §6: ≤ 160 KB gzip, SheetJS not in it): builds with
// Vite, then gzips the entry and every chunk dist/index.html preloads, the scripts a browser
// fetches before the first page can paint. KB here are KiB (1,024 bytes), zlib's default level.
// `npm run bench -- initial-js`; writes bench-results/initial-js.json.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const TARGET_KIB = 160;

execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });

const html = readFileSync(join('dist', 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<(?:script|link rel="modulepreload")[^>]*(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? '');
const chunks = scripts.map((path) => {
  const bytes = readFileSync(join('dist', path));
  // A chunk's source map names the modules in it: SheetJS must be in none of them. (Rolldown's
  // runtime chunk has no map; it holds no module.)
  const map = join('dist', `${path}.map`);
  const sources = existsSync(map) ? (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources : [];
  return { path, bytes: bytes.length, gzip: gzipSync(bytes).length, sheetJs: sources.some((source) => source.includes('@e965/xlsx')) };
});
const kib = (bytes: number) => bytes / 1024;
const gzip = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);
const sheetJsIn = chunks.filter((chunk) => chunk.sheetJs).map((chunk) => chunk.path);

console.log('| chunk | bytes | gzip |\n|---|---|---|');
for (const chunk of chunks) console.log(`| ${chunk.path} | ${chunk.bytes.toLocaleString('en')} | ${kib(chunk.gzip).toFixed(1)} KB |`);
console.log(
  `\nInitial JS: **${kib(gzip).toFixed(1)} KB gzip** in ${chunks.length} scripts (target ≤ ${TARGET_KIB} KB: ${kib(gzip) <= TARGET_KIB ? 'met' : 'not met'}); ` +
    `SheetJS ${sheetJsIn.length === 0 ? 'in none of them' : `in ${sheetJsIn.join(', ')}`}.`,
);
mkdirSync('bench-results', { recursive: true });
writeFileSync(join('bench-results', 'initial-js.json'), `${JSON.stringify({ gzipBytes: gzip, targetKiB: TARGET_KIB, chunks }, null, 2)}\n`);
