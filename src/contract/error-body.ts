import { z } from 'zod';
import { openEnum } from './open-enum';

const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'too_large',
  'unsupported_file',
  'invalid_file',
  'rate_limited',
  'internal',
  'upstream_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Body of every 4xx/5xx the sandbox sends (DESIGN §3), also the real service's current shape
 * (with upper-case codes such as TRACKING_NUMBER_REQUIRED); its older API sent `{"detail": "…"}`,
 * and proxies may send plain text. Codes are open: nothing may switch on their spelling.
 */
export const errorBodySchema = z.object({
  errors: z
    .array(
      z.looseObject({
        code: openEnum(ERROR_CODES),
        message: z.string(),
        target: z.string().nullable().optional(),
        suggested_fix: z.string().nullable().optional(),
      }),
    )
    .min(1),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The real service's older API: `{"detail": "…"}`. */
export const detailBodySchema = z.object({ detail: z.string().min(1) });

export function errorBody(code: ErrorCode, message: string, target: string | null = null, suggestedFix?: string) {
  const error = suggestedFix === undefined ? { code, message, target } : { code, message, target, suggested_fix: suggestedFix };
  return { errors: [error] } satisfies ErrorBody;
}
