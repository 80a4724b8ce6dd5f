// The carriers the sandbox supports (SANDBOX_CARRIERS). As on the real service, a well-formed
// SCAC that is not supported fails the row (CARRIER_NOT_SUPPORTED). By default the list is the
// console's own plus a few more, so that the service's list is longer than the browser's and
// the browser can only warn about a SCAC it does not know: the service decides.
import { OCEAN_CARRIERS } from '../../../spreadsheet/carriers';

/** Real ocean carriers' SCACs that the console's list leaves out. */
const MORE_CARRIERS = [
  { scac: 'CULU', name: 'China United Lines' },
  { scac: 'GSLU', name: 'Gold Star Line' },
  { scac: 'TRKU', name: 'Turkon Line' },
] as const;

export const DEFAULT_SUPPORTED_CARRIERS: readonly string[] = [
  ...OCEAN_CARRIERS.map((carrier) => carrier.scac),
  ...MORE_CARRIERS.map((carrier) => carrier.scac),
];

export function supportedCarriers(configured: readonly string[] | null): ReadonlySet<string> {
  return new Set(configured ?? DEFAULT_SUPPORTED_CARRIERS);
}
