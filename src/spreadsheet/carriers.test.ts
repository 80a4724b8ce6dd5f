import { describe, expect, it } from 'vitest';
import { OCEAN_CARRIERS, carrierFromName, findCarrierByScac, inferCarrierFromNumber } from './carriers';

describe('carrier list', () => {
  it('has the major ocean carriers with unique SCACs', () => {
    const scacs = OCEAN_CARRIERS.map((carrier) => carrier.scac);
    expect(new Set(scacs).size).toBe(scacs.length);
    for (const scac of ['MAEU', 'MSCU', 'CMDU', 'COSU', 'HLCU', 'ONEY', 'EGLV', 'YMLU', 'HDMU', 'ZIMU', 'OOLU', 'PABV', 'WHLC']) {
      expect(findCarrierByScac(scac)?.scac).toBe(scac);
    }
    expect(OCEAN_CARRIERS.length).toBeGreaterThanOrEqual(30);
    for (const scac of scacs) expect(scac).toMatch(/^[A-Z0-9]{4}$/);
  });

  it('finds a SCAC whatever its case', () => {
    expect(findCarrierByScac('maeu')?.name).toBe('Maersk');
    expect(findCarrierByScac('XXXX')).toBeUndefined();
  });
});

describe('carrierFromName', () => {
  it.each([
    ['Maersk', 'MAEU'],
    ['MSC', 'MSCU'],
    ['Hapag-Lloyd', 'HLCU'],
    ['hapag lloyd', 'HLCU'],
    ['CMA CGM', 'CMDU'],
    ['Evergreen Line Ltd', 'EGLV'],
    ['Hamburg Süd', 'SUDU'],
    ['Hamburg Sud', 'SUDU'],
    ['Ocean Network Express', 'ONEY'],
    ['cosco shipping lines', 'COSU'],
    ['maeu', 'MAEU'],
  ])('%s → %s', (name, scac) => {
    expect(carrierFromName(name)?.scac).toBe(scac);
  });

  it('returns null for names it does not know', () => {
    expect(carrierFromName('Acme Freight')).toBeNull();
    expect(carrierFromName('')).toBeNull();
    expect(carrierFromName('Line')).toBeNull();
  });
});

describe('inferCarrierFromNumber', () => {
  it('reads a known SCAC at the start of the number', () => {
    expect(inferCarrierFromNumber('MAEU123456789')).toBe('MAEU');
    expect(inferCarrierFromNumber('hlcuham240512345')).toBe('HLCU');
    expect(inferCarrierFromNumber('MEDUAB123456')).toBe('MSCU');
  });

  it('returns null when no known SCAC starts the number', () => {
    expect(inferCarrierFromNumber('123456789')).toBeNull();
    expect(inferCarrierFromNumber('XYZW123456')).toBeNull();
    expect(inferCarrierFromNumber('')).toBeNull();
  });
});
