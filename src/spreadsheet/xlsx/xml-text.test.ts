import { describe, expect, it } from 'vitest';
import { EscapeFinder, decodeCellText, detach } from './xml-text';

describe('EscapeFinder', () => {
  it('finds every range that decodeCellText would change, asked in order', () => {
    const values = ['plain', 'a &amp; b', 'also plain', 'line\r\nbreak', 'tab_x0009_', 'x_y', '', 'last &lt;'];
    const text = values.map((value) => `<v>${value}</v>`).join('');
    const finder = new EscapeFinder();
    finder.reset(text);
    let at = 0;
    for (const value of values) {
      const start = text.indexOf('<v>', at) + 3;
      const end = start + value.length;
      expect(finder.isPlain(start, end), value).toBe(decodeCellText(value) === value);
      at = end;
    }
  });

  it('starts over on a new text', () => {
    const finder = new EscapeFinder();
    finder.reset('&amp;');
    expect(finder.isPlain(0, 5)).toBe(false);
    finder.reset('plain');
    expect(finder.isPlain(0, 5)).toBe(true);
  });
});

describe('detach', () => {
  it('gives the same text, whatever its length', () => {
    const chunk = 'x'.repeat(100) + 'a value longer than thirteen characters' + 'y'.repeat(100);
    for (const text of ['', 'short', 'exactly13char', chunk.slice(100, 139), chunk]) expect(detach(text)).toBe(text);
  });
});
