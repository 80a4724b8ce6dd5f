import { describe, expect, test } from 'vitest';
import { OCEAN_CARRIERS } from '../../../spreadsheet/carriers';
import { loadConfig } from '../../config';
import { DEFAULT_SUPPORTED_CARRIERS, supportedCarriers } from './supported-carriers';

describe('SANDBOX_CARRIERS', () => {
  test("defaults to the console's list and a few more, so the service's list is the longer one", () => {
    const supported = supportedCarriers(loadConfig({}).carriers);
    for (const carrier of OCEAN_CARRIERS) expect(supported.has(carrier.scac)).toBe(true);
    expect(supported.size).toBeGreaterThan(OCEAN_CARRIERS.length);
    expect(DEFAULT_SUPPORTED_CARRIERS).toContain('CULU');
  });

  test('reads a list of SCACs in any case, and refuses one that is not 4 letters or digits', () => {
    expect(supportedCarriers(loadConfig({ SANDBOX_CARRIERS: 'maeu, 12ab' }).carriers)).toEqual(new Set(['MAEU', '12AB']));
    expect(() => loadConfig({ SANDBOX_CARRIERS: 'MAEU,MSC' })).toThrow(/SANDBOX_CARRIERS: "MSC" is not a SCAC/);
  });

  test('SANDBOX_DISABLED_KEYS takes keys of 16+ characters', () => {
    expect(loadConfig({ SANDBOX_DISABLED_KEYS: 'key-that-is-disabled-0003' }).disabledKeys).toEqual(['key-that-is-disabled-0003']);
    expect(() => loadConfig({ SANDBOX_DISABLED_KEYS: 'short' })).toThrow(/SANDBOX_DISABLED_KEYS/);
  });
});
