/**
 * Date and time cells: whether a number format shows a date or a time, and the serial number
 * written out as a person needs it for an import, whatever the time zone:
 * - date formats → `YYYY-MM-DD` (whatever the order or month names the format shows);
 * - date and time → `YYYY-MM-DD HH:MM`, `:SS` added when the format shows seconds;
 * - time only → `HH:MM` or `HH:MM:SS`, 24-hour clock even for AM/PM formats; elapsed-time
 *   formats (`[h]:mm:ss`) give the total hours (`36:30:00`).
 */
export interface DateDisplay {
  date: boolean;
  time: 'none' | 'minutes' | 'seconds';
  elapsed: boolean;
}

const DATE: DateDisplay = { date: true, time: 'none', elapsed: false };
const DATE_TIME: DateDisplay = { date: true, time: 'minutes', elapsed: false };
const TIME_MINUTES: DateDisplay = { date: false, time: 'minutes', elapsed: false };
const TIME_SECONDS: DateDisplay = { date: false, time: 'seconds', elapsed: false };
const ELAPSED_SECONDS: DateDisplay = { date: false, time: 'seconds', elapsed: true };

/** The built-in formats (ECMA-376 §18.8.30) that are dates or times; files do not spell them out. */
const BUILT_IN: ReadonlyMap<number, DateDisplay> = new Map([
  [14, DATE], // m/d/yyyy, shown in the reader's locale
  [15, DATE], // d-mmm-yy
  [16, DATE], // d-mmm
  [17, DATE], // mmm-yy
  [18, TIME_MINUTES], // h:mm AM/PM
  [19, TIME_SECONDS], // h:mm:ss AM/PM
  [20, TIME_MINUTES], // h:mm
  [21, TIME_SECONDS], // h:mm:ss
  [22, DATE_TIME], // m/d/yyyy h:mm
  [45, TIME_SECONDS], // mm:ss
  [46, ELAPSED_SECONDS], // [h]:mm:ss
  [47, TIME_SECONDS], // mm:ss.0
  // Ids 27–36 and 50–58 are built in only for Chinese, Japanese and Korean Excel (ECMA-376
  // §18.8.30 lists each locale's codes), where a file saved with them carries no code. These
  // are a date (年/月/日 and era forms) or a time in all four locales alike; 34, 35, 52, 53, 55
  // and 56 are a time in one locale and a date in another, so they stay numbers: a guess would
  // lose the date or the time.
  ...[27, 28, 29, 30, 31, 36, 50, 51, 54, 57, 58].map((id) => [id, DATE] as const),
  [32, TIME_MINUTES], // h"时"mm"分"
  [33, TIME_SECONDS], // h"时"mm"分"ss"秒"
]);

export function builtInDateDisplay(numFmtId: number): DateDisplay | null {
  return BUILT_IN.get(numFmtId) ?? null;
}

/**
 * Whether a custom format code shows a date or time, ignoring what is not a token: quoted text,
 * backslash escapes, `_x` spacing, `*x` fills and bracketed parts (`[Red]`, `[$-409]`, `[<100]`),
 * except the elapsed-time brackets `[h]`, `[mm]`, `[ss]`.
 */
export function customDateDisplay(code: string): DateDisplay | null {
  let tokens = '';
  let elapsed = false;
  for (let at = 0; at < code.length; at++) {
    const char = code[at] ?? '';
    if (char === '"') {
      const end = code.indexOf('"', at + 1);
      at = end < 0 ? code.length : end;
    } else if (char === '\\' || char === '_' || char === '*') {
      at++;
    } else if (char === '[') {
      const end = code.indexOf(']', at + 1);
      const inside = code.slice(at + 1, end < 0 ? code.length : end);
      if (/^(h+|m+|s+)$/i.test(inside)) {
        elapsed = true;
        tokens += inside;
      }
      at = end < 0 ? code.length : end;
    } else {
      tokens += char;
    }
  }
  // AM/PM markers contain an M and a P that are not month or minute tokens.
  const letters = tokens.toLowerCase().replace(/am\/pm|a\/p/g, ' h ');
  const hasTime = /[hs]/.test(letters);
  const hasDate = /[yd]/.test(letters) || (letters.includes('m') && !hasTime);
  if (!hasDate && !hasTime) return null;
  const time = !hasTime ? 'none' : letters.includes('s') ? 'seconds' : 'minutes';
  return elapsed ? { date: false, time, elapsed } : { date: hasDate, time, elapsed };
}

const MS_PER_DAY = 86_400_000;
const LAST_SERIAL = 2_958_465; // 9999-12-31 in the 1900 system, beyond which Excel shows ####
const DAYS_1900_TO_1904 = 1462;
/** Days from 1970-01-01 to the day before serial 1 of each date system. */
const EPOCH_1900 = daysFromCivil(1899, 12, 31);
const EPOCH_1904 = daysFromCivil(1904, 1, 1);

/**
 * A serial number as the date/time the format shows, or null where Excel shows #### (negative,
 * beyond 9999). Serial 60 is 1900-02-29, the day Excel's 1900 system has to stay compatible with
 * Lotus 1-2-3; later serials are one day ahead of a true count from 1899-12-31.
 */
export function formatSerial(serial: number, display: DateDisplay, date1904: boolean): string | null {
  if (!(serial >= 0)) return null;
  // Round to the millisecond first, so that 0.99999999 of a day is the next midnight.
  const total = Math.round(serial * MS_PER_DAY);
  let day = Math.floor(total / MS_PER_DAY);
  let seconds = Math.round((total - day * MS_PER_DAY) / 1000);
  if (seconds === 86_400) {
    day += 1;
    seconds = 0;
  }
  if ((date1904 ? day + DAYS_1900_TO_1904 : day) > LAST_SERIAL) return null;
  const time = formatTime(display.elapsed ? day * 86_400 + seconds : seconds, display);
  if (!display.date) return time;
  const date = formatDay(day, date1904);
  return time === '' ? date : `${date} ${time}`;
}

function formatDay(day: number, date1904: boolean): string {
  if (date1904) return civilText(EPOCH_1904 + day);
  if (day === 60) return '1900-02-29';
  if (day === 0) return '1900-01-00'; // what Excel shows for serial 0
  return civilText(EPOCH_1900 + (day > 60 ? day - 1 : day));
}

function formatTime(seconds: number, display: DateDisplay): string {
  if (display.time === 'none') return '';
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const text = `${pad(hours)}:${pad(minutes)}`;
  return display.time === 'seconds' ? `${text}:${pad(seconds % 60)}` : text;
}

/**
 * A `t="d"` cell holds ISO 8601 text; shown as a date, with the time of day only when it has one
 * and the cell's format does not hide it.
 */
export function formatIsoDateCell(iso: string, display: DateDisplay | null): string {
  const match = /^(\d{4}-\d\d-\d\d)(?:T(\d\d):(\d\d)(?::(\d\d))?)?/.exec(iso.trim());
  if (!match) return iso;
  const [, date = '', hours = '00', minutes = '00', seconds = '00'] = match;
  const midnight = hours === '00' && minutes === '00' && seconds === '00';
  if (display !== null && !display.date) return display.time === 'seconds' ? `${hours}:${minutes}:${seconds}` : `${hours}:${minutes}`;
  if (midnight || display?.time === 'none') return date;
  return display?.time === 'minutes' ? `${date} ${hours}:${minutes}` : `${date} ${hours}:${minutes}:${seconds}`;
}

function pad(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/** Howard Hinnant's days-from-civil: proleptic Gregorian date → days since 1970-01-01. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The inverse: days since 1970-01-01 → `YYYY-MM-DD`. */
function civilText(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${pad(month)}-${pad(day)}`;
}
