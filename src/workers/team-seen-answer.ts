// The console server's answer to POST /console/api/seen, read in the import worker from its bytes
// (api/team-history.ts teamSeenAnswerBytes): the page's thread never holds its thousands of keys.
import { teamSeenAnswerSchema } from '../contract/team-history';
import type { SeenKeysUpdate } from './import-protocol';

/** A sentence for the person: what the console server answered cannot be read. */
export class SeenAnswerError extends Error {
  override name = 'SeenAnswerError';
}

/** The keys a team answer says were sent, and when; throws a SeenAnswerError when the bytes are not such an answer. */
export function seenOfTeamAnswer(bytes: ArrayBuffer): SeenKeysUpdate {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new SeenAnswerError('The console server answered about earlier imports with something that is not JSON.');
  }
  const answer = teamSeenAnswerSchema.safeParse(parsed);
  if (!answer.success) throw new SeenAnswerError('The console server answered about earlier imports in a shape this console does not know.');
  return {
    references: answer.data.references.map((key) => [key.value, key.sentAt]),
    trackingNumbers: answer.data.trackingNumbers.map((key) => [key.value, key.sentAt]),
  };
}
