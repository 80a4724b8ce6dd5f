// Test-only fault injection (SANDBOX_FAULTS, DESIGN §7): each /api/v1 request draws at most one
// fault. `500` and `429` answer before the request is handled (nothing happens); `slow` holds
// the request back; `drop` handles the request and then cuts the connection, so the caller
// cannot tell whether it took effect — the hardest case for a client that must not lose rows.
// The faults sit behind the console's pacer hook (a root hook, run before the sandbox's own), so
// the pacer and every caller — a browser, or a job the console's server runs in-process — see
// their answers as they would see the service's. A test switches them on and off while the server
// runs (`app.sandboxFaults`, or a message `{ sandboxFaults: 'drop:1' }` over the IPC channel of
// a server a harness started, which may also ask which requests met one): only where
// SANDBOX_FAULTS was set at start.
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../contract/error-body';
import { type FaultKind, type FaultShares, faultSharesSchema } from '../config';

const ORDER: readonly FaultKind[] = ['500', '429', 'slow', 'drop'];
const FAULT_RETRY_AFTER_S = 1;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when SANDBOX_FAULTS chose to drop this request's response. */
    dropResponse: boolean;
  }
  interface FastifyInstance {
    /** The sandbox's faults in force, where SANDBOX_FAULTS was set at start; null in a sandbox without; absent in proxy mode. */
    sandboxFaults?: FaultControl | null;
  }
}

/** The faults in force while the server runs (tests only). */
export interface FaultControl {
  /** Each /api/v1 request from now on draws by these shares (null: none), with `random` when given. */
  set(shares: FaultShares | null, random?: () => number): void;
  /** Faults injected so far, in order. */
  readonly injected: readonly InjectedFault[];
}

export interface InjectedFault {
  kind: FaultKind;
  method: string;
  url: string;
}

/**
 * What a harness's IPC message `{ sandboxFaults: '<SANDBOX_FAULTS value>', seed?: n }` asks for:
 * the shares, and draws from a seeded PRNG when it names a seed; undefined for any other message.
 */
export function faultsOfMessage(message: unknown): { shares: FaultShares | null; random: (() => number) | undefined } | undefined {
  if (typeof message !== 'object' || message === null || !('sandboxFaults' in message)) return undefined;
  const parsed = faultSharesSchema.safeParse(message.sandboxFaults);
  if (!parsed.success) return undefined;
  const seed = 'seed' in message && Number.isSafeInteger(message.seed) ? (message.seed as number) : null;
  return { shares: parsed.data, random: seed === null ? undefined : seededRandom(seed) };
}

/** Whether a harness's IPC message asks which requests met a fault so far (`{ sandboxFaultsReport: true }`; answered `{ sandboxFaultsInjected }`). */
export function isFaultReportAsked(message: unknown): boolean {
  return typeof message === 'object' && message !== null && 'sandboxFaultsReport' in message && message.sandboxFaultsReport === true;
}

/** A seeded PRNG (mulberry32): the same draws on every run, for a test that must meet the same faults. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function drawFault(shares: FaultShares, random: number): FaultKind | null {
  let threshold = 0;
  for (const kind of ORDER) {
    threshold += shares[kind] ?? 0;
    if (random < threshold) return kind;
  }
  return null;
}

export function addFaults(app: FastifyInstance, shares: FaultShares, slowMs: number, random: () => number = Math.random): FaultControl {
  let current: FaultShares | null = shares;
  let draw = random;
  const injected: InjectedFault[] = [];
  app.decorateRequest('dropResponse', false);
  app.addHook('onRequest', async (request, reply) => {
    const kind = current ? drawFault(current, draw()) : null;
    if (kind) injected.push({ kind, method: request.method, url: request.url });
    switch (kind) {
      case '500':
        return reply.code(500).send(errorBody('internal', 'Injected fault (SANDBOX_FAULTS): the request was not handled.'));
      case '429':
        return reply
          .code(429)
          .header('Retry-After', String(FAULT_RETRY_AFTER_S))
          .send(errorBody('rate_limited', `Injected fault (SANDBOX_FAULTS): retry in ${FAULT_RETRY_AFTER_S} second.`));
      case 'slow':
        await sleep(slowMs);
        return;
      case 'drop':
        request.dropResponse = true;
        return;
      case null:
        return;
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.dropResponse) return payload;
    // Destroying the response and handing Fastify an open stream makes both real sockets and
    // inject() see a reset connection instead of a response (with a finished body, inject()
    // would see the answer). The stream ends once the cut response has closed, before Fastify
    // reacts to that close: a stream still open then counts as a failed answer, and Fastify sent
    // an error answer through this hook again, to be cut again — three times per dropped import,
    // with four 'close' listeners on the one response each time (MaxListenersExceededWarning).
    const body = new Readable({ read() {} });
    reply.raw.once('close', () => body.push(null));
    reply.raw.destroy();
    return body;
  });
  return {
    set(shares, random = Math.random) {
      current = shares;
      draw = random;
    },
    injected,
  };
}
