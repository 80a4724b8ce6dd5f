// The Idempotency-Key request header on imports: the console sends one per chunk so that a
// request repeated below fetch (Chromium resends a POST when a reused connection drops before
// any answer) or by the user's Resend cannot create a second batch where the key is honoured
// (the sandbox; the real service only if it supports it — src/features/README.md, "No duplicate uploads").
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Visible ASCII, 1 to 255 characters, as Stripe and the IETF draft allow. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
