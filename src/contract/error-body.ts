import { z } from 'zod';
import { openEnum } from './open-enum';

export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'not_found',
  'too_large',
  'unsupported_file',
  'invalid_file',
  'rate_limited',
  'internal',
  'upstream_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Body of every 4xx/5xx the sandbox sends (DESIGN §3); the real service may send other shapes. */
export const errorBodySchema = z.object({
  errors: z
    .array(
      z.looseObject({
        code: openEnum(ERROR_CODES),
        message: z.string(),
        target: z.string().nullable().optional(),
      }),
    )
    .min(1),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export function errorBody(code: ErrorCode, message: string, target: string | null = null) {
  return { errors: [{ code, message, target }] } satisfies ErrorBody;
}
