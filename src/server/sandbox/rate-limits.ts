// Per-key rate limits (DESIGN §3): hourly and daily buckets on every sandbox route, plus one
// bucket per import endpoint and per PATCH endpoint. Every response carries the headers of the
// most constrained bucket; a request over any bucket gets 429 and consumes nothing.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { errorBody } from '../../contract/error-body';
import type { ServerConfig } from '../config';

export type RouteBucket = 'import_list' | 'import_file' | 'patch_id' | 'patch_reference';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The extra rate-limit bucket of this route, on top of the hourly and daily ones. */
    rateLimitBucket?: RouteBucket;
  }
}

interface Bucket {
  limiter: RateLimiterMemory;
  points: number;
}

interface BucketState {
  limit: number;
  remaining: number;
  resetAtMs: number;
}

function bucket(keyPrefix: string, points: number, durationS: number): Bucket {
  return { limiter: new RateLimiterMemory({ keyPrefix, points, duration: durationS }), points };
}

function stateOf(b: Bucket, res: RateLimiterRes, now: number): BucketState {
  return { limit: b.points, remaining: Math.max(0, b.points - res.consumedPoints), resetAtMs: now + res.msBeforeNext };
}

export function addRateLimits(app: FastifyInstance, config: ServerConfig): void {
  const everywhere = [bucket('hourly', config.hourlyLimit, 3600), bucket('daily', config.dailyLimit, 86_400)];
  const perRoute: Record<RouteBucket, Bucket> = {
    import_list: bucket('import_list', config.importLimit, config.importWindowS),
    import_file: bucket('import_file', config.importLimit, config.importWindowS),
    patch_id: bucket('patch_id', config.patchLimit, config.patchWindowS),
    patch_reference: bucket('patch_reference', config.patchLimit, config.patchWindowS),
  };

  app.addHook('onRequest', async (request, reply) => {
    const routeBucket = request.routeOptions.config.rateLimitBucket;
    const buckets = routeBucket ? [...everywhere, perRoute[routeBucket]] : everywhere;
    const now = Date.now();

    const exhausted: BucketState[] = [];
    for (const b of buckets) {
      const res = await b.limiter.get(request.keyId);
      if (res && res.consumedPoints >= b.points) exhausted.push(stateOf(b, res, now));
    }
    let states: BucketState[] = [];
    if (exhausted.length === 0) {
      try {
        states = await Promise.all(buckets.map(async (b) => stateOf(b, await b.limiter.consume(request.keyId), now)));
      } catch (rejection) {
        // A concurrent request took the last point between the check and the consume.
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const b = buckets.find((candidate) => candidate.points <= rejection.consumedPoints) ?? buckets[0]!;
        exhausted.push(stateOf(b, rejection, now));
      }
    }

    if (exhausted.length > 0) {
      const blocking = exhausted.reduce((a, b) => (b.resetAtMs > a.resetAtMs ? b : a));
      setHeaders(reply, { ...blocking, remaining: 0 });
      const retryAfterS = Math.max(1, Math.ceil((blocking.resetAtMs - now) / 1000));
      return reply
        .code(429)
        .header('Retry-After', String(retryAfterS))
        .send(
          errorBody(
            'rate_limited',
            `Too many requests: the limit of ${blocking.limit} requests for this key is used up; retry in ${retryAfterS} seconds.`,
          ),
        );
    }
    setHeaders(reply, tightest(states));
  });
}

/** The bucket closest to running out: fewest remaining, then the smallest limit. */
function tightest(states: BucketState[]): BucketState {
  return states.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.limit < a.limit) ? b : a));
}

function setHeaders(reply: FastifyReply, state: BucketState): void {
  reply.header('X-RateLimit-Limit', String(state.limit));
  reply.header('X-RateLimit-Remaining', String(state.remaining));
  reply.header('X-RateLimit-Reset', String(Math.ceil(state.resetAtMs / 1000)));
}
