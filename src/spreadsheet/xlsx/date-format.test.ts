import { describe, expect, it } from 'vitest';
import { type DateDisplay, customDateDisplay, formatIsoDateCell, formatSerial } from './date-format';

const date: DateDisplay = { date: true, time: 'none', elapsed: false };
const dateTime: DateDisplay = { date: true, time: 'seconds', elapsed: false };

describe('customDateDisplay', () => {
  it.each([
    ['yyyy-mm-dd', date],
    ['[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy', date],
    ['m/d/yy h:mm:ss', dateTime],
    ['[ss]', { date: false, time: 'seconds', elapsed: true }],
    ['hh:mm;@', { date: false, time: 'minutes', elapsed: false }],
    ['mmm', date],
    ['0.0E+00', null],
    ['"Date:" @', null],
    ['* #,##0_-;[Red]-* #,##0_-', null],
    ['[<=9999999]###-####;(###) ###-####', null],
  ])('%s', (code, display) => {
    expect(customDateDisplay(code)).toEqual(display);
  });
});

describe('formatSerial', () => {
  it('rounds to the second and carries into the next day', () => {
    expect(formatSerial(45356.999999999, dateTime, false)).toBe('2024-03-06 00:00:00');
    expect(formatSerial(45356 + 59.6 / 86400, dateTime, false)).toBe('2024-03-05 00:01:00');
  });

  it('walks the calendar across centuries and leap years', () => {
    expect(formatSerial(36585, date, false)).toBe('2000-02-29');
    expect(formatSerial(73110, date, false)).toBe('2100-03-01');
    expect(formatSerial(2958465, date, false)).toBe('9999-12-31');
  });
});

describe('formatIsoDateCell', () => {
  it('keeps the date and a time of day when there is one', () => {
    expect(formatIsoDateCell('2024-03-05T00:00:00.000Z', null)).toBe('2024-03-05');
    expect(formatIsoDateCell('2024-03-05T14:30:00', null)).toBe('2024-03-05 14:30:00');
    expect(formatIsoDateCell('2024-03-05T14:30:00', date)).toBe('2024-03-05');
    expect(formatIsoDateCell('not a date', null)).toBe('not a date');
  });
});
