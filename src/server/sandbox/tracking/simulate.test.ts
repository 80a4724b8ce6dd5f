import { describe, expect, test } from 'vitest';
import { validateContainerNumber } from '../../../spreadsheet/iso6346';
import { DISCHARGE_PORTS, LOADING_PORTS } from './ports';
import { simulateTracking } from './simulate';
import { TEST_NUMBERS, testOutcome } from './test-numbers';

const NOW = Date.parse('2026-03-15T12:00:00Z');
const LOCODES = new Set([...LOADING_PORTS, ...DISCHARGE_PORTS].map((port) => port.locode));

describe('simulateTracking', () => {
  test('is deterministic: the same number gives the same journey', () => {
    expect(simulateTracking('MAEU123456789', 'bill_of_lading', 'MAEU', NOW)).toEqual(simulateTracking('maeu 123456789', 'bill_of_lading', 'MAEU', NOW));
  });

  test('a valid container number: one container, that number, POL and POD from the port table', () => {
    const result = simulateTracking('MSCU1234566', 'container', 'MSCU', NOW);
    if (!result.ok) throw new Error('expected tracking to succeed');
    expect(result.containers.map((container) => container.number)).toEqual(['MSCU1234566']);
    expect(LOCODES.has(result.journey.pol.locode)).toBe(true);
    expect(LOCODES.has(result.journey.pod.locode)).toBe(true);
    expect(Date.parse(result.journey.pod.date)).toBeGreaterThan(Date.parse(result.journey.pol.date));
  });

  test('bills of lading and bookings: one to three containers with valid ISO 6346 numbers', () => {
    const counts = new Set<number>();
    for (let i = 0; i < 40; i++) {
      const result = simulateTracking(`HLCU${String(1000 + i)}ABC`, i % 2 ? 'booking' : 'bill_of_lading', 'HLCU', NOW);
      if (!result.ok) throw new Error('expected tracking to succeed');
      counts.add(result.containers.length);
      for (const container of result.containers) expect(validateContainerNumber(container.number)).toEqual({ ok: true });
    }
    expect([...counts].sort()).toEqual([1, 2, 3]);
  });

  test('events before now are actual, later ones planned', () => {
    const result = simulateTracking('MSCU1234566', 'container', 'MSCU', NOW);
    if (!result.ok) throw new Error('expected tracking to succeed');
    for (const event of result.containers[0]?.events ?? []) expect(event.actual).toBe(Date.parse(event.date) <= NOW);
  });

  test.each([
    ['a wrong check digit', 'MSCU1234560', 'container'],
    ['no container number at all', 'HELLO', 'container'],
    ['an implausible bill of lading', 'B/L?', 'bill_of_lading'],
    ['the not-found test number', 'MAEU240000404', 'bill_of_lading'],
  ])('fails with not_found for %s', (_label, number, type) => {
    expect(simulateTracking(number, type, 'MSCU', NOW)).toEqual({ ok: false, reason: 'not_found' });
  });
});

describe('test numbers', () => {
  test('container test numbers are as valid or invalid as their outcome says', () => {
    for (const entry of TEST_NUMBERS.filter((candidate) => candidate.tracking_type === 'container')) {
      expect(validateContainerNumber(entry.tracking_number).ok).toBe(entry.outcome !== 'tracking_failed');
    }
  });

  test('match whatever the case and spacing', () => {
    expect(testOutcome(' cmdu-240000500 ')).toBe('batch_failed');
    expect(testOutcome('HLCU 240000408')).toBe('slow_tracking');
    expect(testOutcome('MSCU1234566')).toBe('tracking_succeeded');
    expect(testOutcome('MSCU7654321')).toBeNull();
  });
});
