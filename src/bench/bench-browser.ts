// What the browser benches share: the bench worker bundled for a page, and the renderer's
// resident memory read from /proc (a dedicated worker is a thread of its renderer, so the
// figure holds the page and its workers).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** src/bench/xlsx-bench-worker.ts (the libraries alone, and the console's XLSX reader) as one ES module. */
export async function bundleBenchWorker(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-worker-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    build: {
      outDir,
      emptyOutDir: true,
      minify: true,
      lib: { entry: join(root, 'src/bench/xlsx-bench-worker.ts'), formats: ['es'], fileName: () => 'worker.js' },
    },
  });
  return readFileSync(join(outDir, 'worker.js'), 'utf8');
}

/** The renderer processes (pids) of the browser started with this marker among its arguments. */
export function rendererPids(marker: string): number[] {
  return rendererProcesses(marker).map((p) => p.pid);
}

/** VmRSS of a process in bytes (0 once it is gone): resident memory, shared library pages included. */
export function processRss(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Resident memory (bytes, VmRSS as `ps` reports it) of the renderer processes of the browser
 * started with this marker among its arguments: the page and its dedicated workers.
 */
export function rendererRss(marker: string): number {
  return rendererProcesses(marker).reduce((sum, p) => sum + p.rss, 0);
}

function rendererProcesses(marker: string): { pid: number; rss: number }[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' });
  const processes = table
    .trim()
    .split('\n')
    .map((line) => {
      const [pid, ppid, rss, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), rss: Number(rss) * 1024, args: args.join(' ') };
    });
  const browser = processes.find((p) => p.args.includes(marker) && !p.args.includes('--type='));
  if (!browser) return [];
  const family = new Set([browser.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of processes) {
      if (family.has(p.ppid) && !family.has(p.pid)) {
        family.add(p.pid);
        grew = true;
      }
    }
  }
  return processes.filter((p) => family.has(p.pid) && p.args.includes('--type=renderer'));
}
