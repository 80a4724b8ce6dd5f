// Deterministic tracking: the same number gives the same journey (ports, containers, day
// offsets), anchored to the UTC day the tracking runs so that dates stay current.
import type { TrackingType } from '../../../contract/shipment-request';
import { containerCheckDigit, validateContainerNumber } from '../../../spreadsheet/iso6346';
import { DISCHARGE_PORTS, INLAND_DESTINATIONS, INLAND_ORIGINS, LOADING_PORTS, type Place } from './ports';
import { normalizeNumber, testOutcome } from './test-numbers';
import { seededRandom } from '../../../spreadsheet/seeded-random';

export interface PortCall {
  locode: string;
  name: string;
  country: string;
  date: string;
  actual: boolean;
}

export interface Journey {
  pre: PortCall | null;
  pol: PortCall;
  pod: PortCall;
  pde: PortCall | null;
}

export interface ContainerEvent {
  code: string;
  description: string;
  location: string;
  date: string;
  actual: boolean;
}

export interface SimulatedContainer {
  number: string;
  iso_type: string;
  status: string;
  events: ContainerEvent[];
}

export type TrackingResult =
  | { ok: true; journey: Journey; containers: SimulatedContainer[] }
  | { ok: false; reason: 'not_found' };

const DAY_MS = 86_400_000;
const ISO_TYPES = ['22G1', '42G1', '45G1', '45R1'] as const;
const PLAUSIBLE_REFERENCE_NUMBER = /^[A-Z0-9]{6,20}$/;

/** FNV-1a: a small, stable hash so that a number always seeds the same journey. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function simulateTracking(trackingNumber: string, trackingType: TrackingType | (string & {}), carrierScac: string, now: number): TrackingResult {
  const number = normalizeNumber(trackingNumber);
  if (testOutcome(number) === 'tracking_failed') return { ok: false, reason: 'not_found' };
  const plausible =
    trackingType === 'container' ? validateContainerNumber(number).ok : PLAUSIBLE_REFERENCE_NUMBER.test(number);
  if (!plausible) return { ok: false, reason: 'not_found' };

  const random = seededRandom(hash(number));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const departure = today - between(2, 30) * DAY_MS;
  const arrival = departure + between(14, 42) * DAY_MS;
  const call = ({ locode, name, country }: Place, at: number): PortCall => ({ locode, name, country, date: new Date(at).toISOString(), actual: at <= now });
  const pol = pick(LOADING_PORTS);
  const pod = pick(DISCHARGE_PORTS);
  const origins = INLAND_ORIGINS.filter((where) => where.via.includes(pol.country));
  const destinations = INLAND_DESTINATIONS.filter((where) => where.via.includes(pod.country));
  const journey: Journey = {
    pre: origins.length > 0 && random() < 0.4 ? call(pick(origins), departure - between(3, 6) * DAY_MS) : null,
    pol: call(pol, departure),
    pod: call(pod, arrival),
    pde: destinations.length > 0 && random() < 0.5 ? call(pick(destinations), arrival + between(2, 6) * DAY_MS) : null,
  };

  const count = trackingType === 'container' ? 1 : between(1, 3);
  const owner = `${carrierScac.slice(0, 3).padEnd(3, 'X')}U`;
  const containers: SimulatedContainer[] = [];
  for (let i = 0; i < count; i++) {
    const containerNumber = trackingType === 'container' ? number : withCheckDigit(`${owner}${String(between(0, 999_999)).padStart(6, '0')}`);
    containers.push({ number: containerNumber, iso_type: pick(ISO_TYPES), ...containerEvents(journey, now) });
  }
  return { ok: true, journey, containers };
}

function withCheckDigit(firstTen: string): string {
  return `${firstTen}${containerCheckDigit(firstTen) ?? 0}`;
}

function containerEvents(journey: Journey, now: number): { status: string; events: ContainerEvent[] } {
  const at = (where: PortCall, dayOffset: number) => Date.parse(where.date) + dayOffset * DAY_MS;
  const origin = journey.pre ?? journey.pol;
  const destination = journey.pde ?? journey.pod;
  const planned: [string, string, PortCall, number][] = [
    ['empty_pickup', 'Empty container picked up', origin, at(journey.pol, -4)],
    ['gate_in', 'Gate in at the port of loading', journey.pol, at(journey.pol, -2)],
    ['loaded', 'Loaded on the vessel', journey.pol, at(journey.pol, -1)],
    ['vessel_departed', 'Vessel departed', journey.pol, at(journey.pol, 0)],
    ['vessel_arrived', 'Vessel arrived', journey.pod, at(journey.pod, 0)],
    ['discharged', 'Discharged from the vessel', journey.pod, at(journey.pod, 1)],
    ['gate_out', 'Gate out from the port of discharge', journey.pod, at(journey.pod, 3)],
    ['empty_returned', 'Empty container returned', destination, at(destination, 5)],
  ];
  const events = planned.map(([code, description, where, time]) => ({
    code,
    description,
    location: `${where.name} (${where.locode})`,
    date: new Date(time).toISOString(),
    actual: time <= now,
  }));
  const lastActual = events.filter((event) => event.actual).at(-1);
  return { status: lastActual?.code ?? 'booked', events };
}
