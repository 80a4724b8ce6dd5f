import { describe, expect, it } from 'vitest';
import { SeenAnswerError, seenOfTeamAnswer } from './team-seen-answer';

const bytesOf = (text: string) => new TextEncoder().encode(text).buffer;

describe('seenOfTeamAnswer', () => {
  it('gives the keys the console server says were sent, with when', () => {
    const answer = { references: [{ value: 'PO-1', sentAt: 1_700_000_000_000 }], trackingNumbers: [{ value: 'MSKU1234565', sentAt: 1_700_000_000_001 }] };
    expect(seenOfTeamAnswer(bytesOf(JSON.stringify(answer)))).toEqual({ references: [['PO-1', 1_700_000_000_000]], trackingNumbers: [['MSKU1234565', 1_700_000_000_001]] });
  });

  it('says in a sentence when the answer is not JSON, or not an answer about seen keys', () => {
    expect(() => seenOfTeamAnswer(bytesOf('<html>Bad gateway</html>'))).toThrow(new SeenAnswerError('The console server answered about earlier imports with something that is not JSON.'));
    expect(() => seenOfTeamAnswer(bytesOf('{"references":[{"value":"PO-1"}],"trackingNumbers":[]}'))).toThrow(/in a shape this console does not know/);
  });
});
