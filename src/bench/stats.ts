// Figures as src/bench/README.md gives them: the median of several runs with its range, and the machine's
// load when the bench started, so a reader can tell a busy machine's figure from a quiet one's.
import { cpus, loadavg } from 'node:os';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** "412 ms (380–455)": the median, then the lowest and highest run. */
export function medianWithRange(values: readonly number[], unit: string, digits = 0): string {
  const format = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  if (values.length === 0) return '—';
  if (values.length === 1) return `${format(values[0] ?? NaN)}${unit ? ` ${unit}` : ""}`;
  return `${format(median(values))}${unit ? ` ${unit}` : ""} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

/** Runs from `--runs N` or BENCH_RUNS, else the bench's default. */
export function runCount(fallback: number): number {
  const at = process.argv.indexOf('--runs');
  const value = Number(at >= 0 ? process.argv[at + 1] : process.env.BENCH_RUNS);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** "load 13.6 / 13.6 / 14.9 (1, 5, 15 min) on 2 cores" */
export function machineLoad(): string {
  const [one, five, fifteen] = loadavg().map((value) => value.toFixed(1));
  return `load ${one} / ${five} / ${fifteen} (1, 5, 15 min) on ${cpus().length} cores`;
}
