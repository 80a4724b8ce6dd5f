// Typed errors of the HTTP module: the only things it throws. Each carries a sentence the UI can
// show as it is (`message`, with the service's suggested fix when it gives one), and the details a
// panel may want (status, code, target, suggested fix).
import { detailBodySchema, errorBodySchema } from '../contract/error-body';

export class ApiError extends Error {
  override name = 'ApiError';
}

/** What the service said, from whichever of its shapes it used. */
interface ServiceWords {
  sentence: string | null;
  code: string | null;
  target: string | null;
  suggestedFix: string | null;
  /** False when the body was not one of the service's error shapes (a proxy's HTML page, say). */
  structured: boolean;
}

/**
 * Reads `{"errors":[{code, message, target, suggested_fix?}]}` (the sandbox, and the real service
 * with its upper-case codes), `{"detail": "…"}` (the real service's older API), or plain text.
 * Codes are kept as given and never compared: their case differs between services.
 */
function readServiceWords(bodyText: string): ServiceWords {
  let json: unknown = null;
  try {
    json = JSON.parse(bodyText);
  } catch {
    // Not JSON: plain text below.
  }
  const body = errorBodySchema.safeParse(json);
  if (body.success) {
    const [first, ...rest] = body.data.errors;
    const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
    return { sentence: `${first!.message}${more}`, code: first!.code, target: first!.target ?? null, suggestedFix: first!.suggested_fix ?? null, structured: true };
  }
  const detail = detailBodySchema.safeParse(json);
  if (detail.success) return { sentence: detail.data.detail, code: null, target: null, suggestedFix: null, structured: true };
  const raw = bodyText.trim().slice(0, 300);
  return { sentence: raw === '' ? null : raw, code: null, target: null, suggestedFix: null, structured: false };
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The service answered with a 4xx/5xx. */
export class HttpError extends ApiError {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly target: string | null,
    readonly suggestedFix: string | null = null,
  ) {
    super(message);
  }

  /**
   * 401 or 403: the key was refused, or API access is not enabled for the account (the real
   * service answers either). Nothing retries it; whoever sends stops and says so.
   */
  get keyRefused(): boolean {
    return this.status === 401 || this.status === 403;
  }

  static fromBody(status: number, statusText: string, bodyText: string): HttpError {
    const words = readServiceWords(bodyText);
    let message: string;
    if (status === 401 || status === 403) {
      message = `The service refused the API key, or API access is not enabled for this account (${status}).`;
      if (words.sentence) message += ` It said: ${sentence(words.sentence)}`;
    } else if (words.sentence === null) {
      message = `The service answered ${status}${statusText ? ` ${statusText}` : ''}.`;
    } else if (words.structured) {
      message = sentence(words.sentence);
    } else {
      message = `The service answered ${status}${statusText ? ` ${statusText}` : ''}: ${words.sentence}`;
    }
    if (words.suggestedFix) message += ` Suggested fix: ${sentence(words.suggestedFix)}`;
    return new HttpError(status, message, words.code, words.target, words.suggestedFix);
  }
}

/** No answer: the connection failed or dropped, or the request timed out. */
export class NetworkError extends ApiError {
  override name = 'NetworkError';
}

/**
 * The request never left this browser (the part of the page that makes it could not start), so
 * the service cannot have seen it: a chunk stays pending and nothing may count it as imported.
 */
export class NotSentError extends ApiError {
  override name = 'NotSentError';
}

/** The service answered 2xx with a body that does not match the documented shape. */
export class InvalidResponseError extends ApiError {
  override name = 'InvalidResponseError';
}
