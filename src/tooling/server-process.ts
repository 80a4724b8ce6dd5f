// The console's server as a child process, for a harness that needs a real one (e2e's global
// setup, the hostile-upload bench): a free loopback port, a throwaway in-memory store, quiet logs.
// It is ready when it prints the line main.ts prints for this, "… on http://127.0.0.1:<port>".
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcessOptions {
  /** start.ts builds the console first when dist/ is missing or stale; main.ts only serves. */
  entry: 'src/server/start.ts' | 'src/server/main.ts';
  /** Settings over the defaults above and this process's environment. */
  env?: Record<string, string>;
  /** How long building and starting may take before the harness gives up. */
  startTimeoutMs: number;
  /** Copies the server's stderr to this process's as it comes, so its warnings are seen. */
  echoStderr?: boolean;
  /** Called with every whole line the server writes, stdout and stderr, from its start on (its log, at LOG_LEVEL). */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  address: string;
  /** Sends SIGTERM and resolves once the process has exited. */
  stop: () => Promise<void>;
}

export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', options.entry], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SANDBOX_DB: ':memory:', LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (options.onLine) forwardLines(child, options.onLine);
  try {
    const address = await waitForAddress(child, options);
    return { child, address, stop: () => stop(child) };
  } catch (error) {
    // One that never listened must not outlive the harness that gave up on it.
    await stop(child);
    throw error;
  }
}

function waitForAddress(child: ChildProcess, { entry, startTimeoutMs, echoStderr }: ServerProcessOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${entry} did not start within ${startTimeoutMs / 1000} s:\n${output}`)), startTimeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (echoStderr) process.stderr.write(chunk);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with code ${code} before listening:\n${output}`));
    });
  });
}

function forwardLines(child: ChildProcess, onLine: NonNullable<ServerProcessOptions['onLine']>): void {
  for (const name of ['stdout', 'stderr'] as const) {
    let partial = '';
    child[name]?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line, name);
    });
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
