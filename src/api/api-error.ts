// Typed errors of the HTTP module: the only things it throws. Each carries a sentence the UI can
// show as it is (`message`), and the details a panel may want (status, code, target).
import { errorBodySchema } from '../contract/error-body';

export class ApiError extends Error {
  override name = 'ApiError';
}

/** The service answered with a 4xx/5xx. */
export class HttpError extends ApiError {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly target: string | null,
  ) {
    super(message);
  }

  static fromBody(status: number, statusText: string, bodyText: string): HttpError {
    let json: unknown = null;
    try {
      json = JSON.parse(bodyText);
    } catch {
      // Not JSON: fall back to the raw text below.
    }
    const parsed = errorBodySchema.safeParse(json);
    if (parsed.success) {
      const [first, ...rest] = parsed.data.errors;
      const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
      return new HttpError(status, `${first!.message}${more}`, first!.code, first!.target ?? null);
    }
    const raw = bodyText.trim().slice(0, 300);
    const fallback = `The service answered ${status}${statusText ? ` ${statusText}` : ''}${raw ? `: ${raw}` : '.'}`;
    return new HttpError(status, fallback, null, null);
  }
}

/** No answer: the connection failed or dropped, or the request timed out. */
export class NetworkError extends ApiError {
  override name = 'NetworkError';
}

/** The service answered 2xx with a body that does not match the documented shape. */
export class InvalidResponseError extends ApiError {
  override name = 'InvalidResponseError';
}
