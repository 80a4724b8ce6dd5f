// The console's server as a child process, for every harness that needs a real one (e2e's global
// setup and specs, the benches, the soak): a loopback port, a throwaway in-memory store, quiet
// logs, unless the caller's settings say otherwise. It is ready when it prints the line main.ts
// prints for this, "… on http://127.0.0.1:<port>". The restartable kind keeps its port and its
// SQLite file across a kill, so a browser's origin and the sandbox's batches outlive a crash.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcessOptions {
  /** start.ts (the default) builds the console first when dist/ is missing or stale; main.ts only serves. */
  entry?: 'src/server/start.ts' | 'src/server/main.ts';
  /** Settings over this process's environment and the defaults: PORT 0 (a free one), HOST 127.0.0.1, SANDBOX_DB and CONSOLE_DB :memory:, LOG_LEVEL warn. */
  env?: Record<string, string>;
  /** How long building and starting may take before the harness gives up; 180 s by default. */
  startTimeoutMs?: number;
  /** Copies the server's stderr to this process's as it comes, so its warnings are seen. */
  echoStderr?: boolean;
  /** Called with every whole line the server writes, stdout and stderr, from its start on (its log, at LOG_LEVEL). */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** Modules the server loads before its entry (`--import`), after tsx. */
  preload?: string[];
  /** An IPC channel between the harness (`child.send`) and the server (`process.send`). */
  ipc?: boolean;
}

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Sends the signal (SIGTERM unless told) and resolves once the process has exited. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

const DEFAULT_START_TIMEOUT_MS = 180_000;

export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const entry = options.entry ?? 'src/server/start.ts';
  const preload = (options.preload ?? []).flatMap((module) => ['--import', module]);
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload, entry], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SANDBOX_DB: ':memory:', CONSOLE_DB: ':memory:', LOG_LEVEL: 'warn', ...options.env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  if (options.onLine) forwardLines(child, options.onLine);
  if (options.echoStderr) child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  try {
    const url = await waitForAddress(child, entry, options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
    return { child, url, stop: (signal) => stop(child, signal) };
  } catch (error) {
    // One that never listened must not outlive the harness that gave up on it.
    await stop(child);
    throw error;
  }
}

export interface RestartableServerProcess {
  /** http://127.0.0.1:<port>, the same after every restart. */
  url: string;
  /** SIGKILL: no graceful shutdown, as a crash or an OOM kill would do. */
  kill: () => Promise<void>;
  /** Starts it again on the same port and SQLite file; batches it was processing resume. */
  restart: () => Promise<void>;
  /** SIGTERM, then removes its SQLite file. */
  stop: () => Promise<void>;
  /** A message to the server running now over its IPC channel (started with `ipc: true`), as `process.send` would; false when none runs. */
  send: (message: unknown) => boolean;
  /** Sends `message` over the IPC channel and resolves with the server's first answer that `isAnswer` takes (rejects after 10 s). */
  ask: <T>(message: unknown, isAnswer: (answer: unknown) => answer is T) => Promise<T>;
}

/** A server on a fixed free port with its sandbox store in a SQLite file of its own and its console store beside it (PORT, SANDBOX_DB and CONSOLE_DB are set here), so a kill + restart keeps them. */
export async function startRestartableServerProcess(options: ServerProcessOptions = {}): Promise<RestartableServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'server-process-'));
  const port = await freePort();
  const env = { ...options.env, PORT: String(port), SANDBOX_DB: join(dir, 'sandbox.sqlite'), CONSOLE_DB: join(dir, 'console.sqlite') };
  let server: ServerProcess | null = null;
  const launch = async () => {
    server = await startServerProcess({ ...options, env });
  };
  const halt = async (signal: NodeJS.Signals) => {
    const running = server;
    server = null;
    await running?.stop(signal);
  };
  try {
    await launch();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    kill: () => halt('SIGKILL'),
    restart: launch,
    send: (message) => {
      const running: ServerProcess | null = server;
      return running?.child.send?.(message as Parameters<NonNullable<ChildProcess['send']>>[0]) ?? false;
    },
    ask: <T>(message: unknown, isAnswer: (answer: unknown) => answer is T) => {
      const running: ServerProcess | null = server;
      const child = running?.child;
      if (!child?.send) return Promise.reject(new Error('No server with an IPC channel runs.'));
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.off('message', listen);
          reject(new Error('The server did not answer over its IPC channel within 10 s.'));
        }, 10_000);
        const listen = (answer: unknown) => {
          if (!isAnswer(answer)) return;
          clearTimeout(timer);
          child.off('message', listen);
          resolve(answer);
        };
        child.on('message', listen);
        child.send(message as Parameters<NonNullable<ChildProcess['send']>>[0]);
      });
    },
    stop: async () => {
      await halt('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function waitForAddress(child: ChildProcess, entry: string, startTimeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // What it printed before listening, for the error; no longer kept once it listens.
    let output = '';
    let settled = false;
    const settle = (outcome: (printed: string) => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const printed = output;
      output = '';
      outcome(printed);
    };
    const timer = setTimeout(() => settle((printed) => reject(new Error(`${entry} did not start within ${startTimeoutMs / 1000} s:\n${printed}`))), startTimeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (settled) return;
      output += chunk.toString();
      const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      const url = match?.[1];
      if (url) settle(() => resolve(url));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (!settled) output += chunk.toString();
    });
    child.once('exit', (code, signal) => {
      settle((printed) => reject(new Error(`${entry} exited (${signal ?? `code ${code}`}) before listening:\n${printed}`)));
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

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
