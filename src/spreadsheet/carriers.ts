/**
 * Ocean carriers that ship with the console: their SCAC, the names people write instead of it,
 * and the prefixes their bills of lading and bookings start with. Used to turn "Maersk" into
 * MAEU, to warn about unknown SCACs and to infer the carrier of a B/L from its number.
 */

export interface Carrier {
  scac: string;
  name: string;
  /** Other names and abbreviations seen in spreadsheets. */
  aliases: readonly string[];
  /** Prefixes of B/L and booking numbers besides the SCAC itself (MSC writes MEDU…). */
  numberPrefixes?: readonly string[];
}

export const OCEAN_CARRIERS: readonly Carrier[] = [
  { scac: 'MAEU', name: 'Maersk', aliases: ['Maersk Line', 'A.P. Moller-Maersk', 'AP Moller Maersk', 'Maersk A/S', 'MSK'] },
  { scac: 'MSCU', name: 'MSC', aliases: ['Mediterranean Shipping Company', 'MSC Mediterranean Shipping'], numberPrefixes: ['MEDU'] },
  { scac: 'CMDU', name: 'CMA CGM', aliases: ['CMA', 'CMA-CGM', 'CMACGM'] },
  { scac: 'COSU', name: 'COSCO', aliases: ['COSCO Shipping', 'COSCO Shipping Lines', 'COSCO Container Lines'] },
  { scac: 'HLCU', name: 'Hapag-Lloyd', aliases: ['Hapag Lloyd', 'Hapag', 'HL', 'HPL'] },
  { scac: 'ONEY', name: 'ONE', aliases: ['Ocean Network Express'] },
  { scac: 'EGLV', name: 'Evergreen', aliases: ['Evergreen Line', 'Evergreen Marine', 'EMC'] },
  { scac: 'YMLU', name: 'Yang Ming', aliases: ['Yang Ming Line', 'Yang Ming Marine Transport', 'YML', 'YM'] },
  { scac: 'HDMU', name: 'HMM', aliases: ['Hyundai Merchant Marine', 'Hyundai', 'HMM Co'] },
  { scac: 'ZIMU', name: 'ZIM', aliases: ['ZIM Integrated Shipping', 'Zim Line'] },
  { scac: 'OOLU', name: 'OOCL', aliases: ['Orient Overseas Container Line', 'Orient Overseas'] },
  { scac: 'PABV', name: 'PIL', aliases: ['Pacific International Lines', 'Pacific International Line'] },
  { scac: 'WHLC', name: 'Wan Hai', aliases: ['Wan Hai Lines', 'Wanhai'] },
  { scac: 'APLU', name: 'APL', aliases: ['American President Lines'] },
  { scac: 'ANNU', name: 'ANL', aliases: ['ANL Container Line', 'Australia National Line'] },
  { scac: 'SUDU', name: 'Hamburg Süd', aliases: ['Hamburg Sud', 'Hamburg Sued', 'Hamburg Süd'] },
  { scac: 'SAFM', name: 'Safmarine', aliases: [] },
  { scac: 'SEAU', name: 'Sealand', aliases: ['SeaLand', 'Sealand Maersk', 'Sealand Americas'] },
  { scac: 'MATS', name: 'Matson', aliases: ['Matson Navigation'] },
  { scac: 'SMLM', name: 'SM Line', aliases: ['SM Line Corporation', 'SML'] },
  { scac: 'KMTU', name: 'KMTC', aliases: ['Korea Marine Transport', 'KMTC Line'] },
  { scac: 'SKLU', name: 'Sinokor', aliases: ['Sinokor Merchant Marine'] },
  { scac: 'IAAU', name: 'Interasia', aliases: ['Interasia Lines'] },
  { scac: 'REGU', name: 'RCL', aliases: ['Regional Container Lines'] },
  { scac: 'ESPU', name: 'Emirates Shipping Line', aliases: ['Emirates', 'ESL'] },
  { scac: 'ARKU', name: 'Arkas', aliases: ['Arkas Line', 'Arkas Container Transport'] },
  { scac: 'ACLU', name: 'ACL', aliases: ['Atlantic Container Line'] },
  { scac: 'CHVW', name: 'Swire Shipping', aliases: ['Swire', 'China Navigation', 'China Navigation Company'] },
  { scac: 'FESO', name: 'FESCO', aliases: ['Far Eastern Shipping Company'] },
  { scac: 'NSAU', name: 'Bahri', aliases: ['National Shipping Company of Saudi Arabia'] },
  { scac: 'CHIW', name: 'CSAV', aliases: ['Compania Sud Americana de Vapores'] },
  { scac: 'NIDU', name: 'Nile Dutch', aliases: ['Nile Dutch Africa Line'] },
  { scac: 'EIMU', name: 'Eimskip', aliases: [] },
  { scac: 'ADMU', name: 'Admiral Container Lines', aliases: ['Admiral'] },
  // Merged into ONE in 2018, but their SCACs still appear on older bills and in master data.
  { scac: 'NYKS', name: 'NYK Line', aliases: ['Nippon Yusen Kaisha', 'NYK'] },
  { scac: 'MOLU', name: 'MOL', aliases: ['Mitsui O.S.K. Lines', 'Mitsui OSK'] },
  { scac: 'KKLU', name: 'K Line', aliases: ['Kawasaki Kisen Kaisha', 'K-Line'] },
];

const byScac = new Map(OCEAN_CARRIERS.map((carrier) => [carrier.scac, carrier]));

const byNumberPrefix = new Map<string, Carrier>();
for (const carrier of OCEAN_CARRIERS) {
  byNumberPrefix.set(carrier.scac, carrier);
  for (const prefix of carrier.numberPrefixes ?? []) byNumberPrefix.set(prefix, carrier);
}

/** "Hapag-Lloyd", "hapag lloyd" and "HAPAG LLOYD" all become "hapaglloyd". */
function nameKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Words that often trail a carrier's name in spreadsheets and say nothing about which carrier it is. */
const NOISE_SUFFIX = /(containerlines?|shippinglines?|shipping|lines?|co|ltd|inc|as|group|corporation|corp)$/;

const byName = new Map<string, Carrier>();
for (const carrier of OCEAN_CARRIERS) {
  for (const name of [carrier.name, ...carrier.aliases]) {
    const key = nameKey(name);
    if (key && !byName.has(key)) byName.set(key, carrier);
  }
}

export function findCarrierByScac(scac: string): Carrier | undefined {
  return byScac.get(scac) ?? byScac.get(scac.toUpperCase());
}

/**
 * The carrier a name or alias refers to ("Maersk", "MSC", "Hapag-Lloyd", "Evergreen Line Ltd"),
 * or null. A known SCAC written in the name column also matches.
 */
export function carrierFromName(text: string): Carrier | null {
  let key = nameKey(text);
  while (key) {
    const carrier = byName.get(key) ?? byScac.get(key.toUpperCase());
    if (carrier) return carrier;
    const shorter = key.replace(NOISE_SUFFIX, '');
    if (shorter === key) break;
    key = shorter;
  }
  return null;
}

/**
 * The SCAC of the carrier whose known prefix starts a B/L or booking number
 * ("MAEU123456789" → "MAEU", "MEDUAB123456" → "MSCU"), or null.
 */
export function inferCarrierFromNumber(trackingNumber: string): string | null {
  const prefix = trackingNumber.trimStart().slice(0, 4);
  return (byNumberPrefix.get(prefix) ?? byNumberPrefix.get(prefix.toUpperCase()))?.scac ?? null;
}
