// How shipment fields read on screen: statuses and reasons in words, ports, dates.
import { humanize } from '../../components/humanize';
import type { StatusTone } from '../../components/status-badge';
import type { PortCall, Shipment } from '../../contract/shipment';

export function processStatus(status: Shipment['last_process_status']): { tone: StatusTone; words: string } {
  if (status === 'track_succeeded') return { tone: 'success', words: 'tracked' };
  if (status === 'track_failed') return { tone: 'danger', words: 'tracking failed' };
  if (status === 'processing') return { tone: 'progress', words: 'tracking in progress' };
  return status ? { tone: 'neutral', words: humanize(status) } : { tone: 'neutral', words: 'not tracked yet' };
}

export function portName(call: PortCall | null | undefined): string | null {
  if (!call) return null;
  if (call.name) return call.locode ? `${call.name} (${call.locode})` : call.name;
  return call.locode ?? null;
}

/** A date as the service's day (UTC): "2026-03-04", with the time only when it is not midnight. */
export function formatDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  const iso = new Date(time).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The arrival at the port of discharge: expected, or done when the service marks it actual. */
export function arrival(shipment: Shipment): { date: string; arrived: boolean } | null {
  const date = formatDate(shipment.tracking.pod?.date);
  return date ? { date, arrived: shipment.tracking.pod?.actual === true } : null;
}
