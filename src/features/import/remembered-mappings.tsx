// The remembered mappings the Import page maps files from: this browser's and the workspace's,
// the newest record of each set of headers, listed on the drop step with Forget.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ApiTarget } from '../../api/http-client';
import { forgetMapping, localMappings, mappingKeys, workspaceMappingsQuery } from '../../api/remembered-mappings';
import { hasTeamHistory } from '../../api/team-history';
import { Button } from '../../components/button';
import { plural } from '../../components/plural';
import type { RememberedMapping } from '../../contract/remembered-mapping';
import { newestMappings } from '../../spreadsheet/remembered-mapping';

export interface RememberedMappings {
  /** Newest first; where both places hold one set of headers, the newer record. */
  mappings: RememberedMapping[];
  /** Fingerprints the workspace's server holds. */
  onServer: ReadonlySet<string>;
  /** The workspace's could not be read: a sentence. */
  error: string | null;
  forget: (fingerprint: string) => Promise<void>;
}

export function useRememberedMappings(target: ApiTarget): RememberedMappings {
  const queryClient = useQueryClient();
  const workspace = useQuery(workspaceMappingsQuery(target));
  // This browser's, read again after a Forget, and for another connection (state adjusted while rendering).
  const [stored, setStored] = useState(() => ({ baseUrl: target.baseUrl, mappings: localMappings(target) }));
  if (stored.baseUrl !== target.baseUrl) setStored({ baseUrl: target.baseUrl, mappings: localMappings(target) });
  const local = stored.mappings;
  // Forgotten here: left out at once, before the workspace's list is read again.
  const [forgotten, setForgotten] = useState<ReadonlySet<string>>(new Set());
  const serverData = workspace.data;
  const mappings = useMemo(
    () => newestMappings([...local, ...(serverData ?? [])]).filter((mapping) => !forgotten.has(mapping.fingerprint)),
    [local, serverData, forgotten],
  );
  const onServer = useMemo(() => new Set((serverData ?? []).map((mapping) => mapping.fingerprint)), [serverData]);
  const forget = async (fingerprint: string) => {
    setForgotten((current) => new Set(current).add(fingerprint));
    try {
      await forgetMapping(target, fingerprint);
    } finally {
      setStored({ baseUrl: target.baseUrl, mappings: localMappings(target) });
      await queryClient.invalidateQueries({ queryKey: mappingKeys.all(target) });
    }
  };
  const error = workspace.error ? `The team's remembered mappings could not be read: ${workspace.error.message}` : null;
  return { mappings, onServer, error, forget };
}

const dateOf = (ms: number) => new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** The drop step's list of remembered mappings, with Forget; nothing when there are none. */
export function RememberedMappingsList({ remembered, target }: { remembered: RememberedMappings; target: ApiTarget }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  if (remembered.mappings.length === 0 && !remembered.error) return null;
  const forget = async (mapping: RememberedMapping) => {
    setBusy(mapping.fingerprint);
    setError(null);
    try {
      await remembered.forget(mapping.fingerprint);
    } catch (e) {
      setError(`The mapping of ${mapping.fileName} could not be forgotten for the team: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(null);
    }
  };
  const team = hasTeamHistory(target);
  return (
    <section aria-labelledby="remembered-heading" className="mt-8 space-y-3">
      <div>
        <h2 id="remembered-heading" className="text-base font-semibold text-slate-900">Remembered mappings</h2>
        <p className="text-sm text-slate-600">
          A file with the same headers as one of these (in any order or case) is mapped as it was{team ? ', in any browser of your team' : ' in this browser'}.
        </p>
      </div>
      {remembered.error && <p className="text-sm text-amber-800">{remembered.error}</p>}
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
      {remembered.mappings.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2">Mapped for</th>
                <th scope="col" className="px-4 py-2">On</th>
                <th scope="col" className="px-4 py-2">By</th>
                <th scope="col" className="px-4 py-2">Columns</th>
                <th scope="col" className="px-4 py-2">Kept</th>
                <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {remembered.mappings.map((mapping) => {
                const imported = mapping.columns.filter((column) => column.target !== null).length;
                return (
                  <tr key={mapping.fingerprint}>
                    <th scope="row" className="px-4 py-2 text-left font-medium text-slate-900">
                      {mapping.fileName}
                      {mapping.sheet !== null && <span className="font-normal text-slate-600"> · sheet “{mapping.sheet}”</span>}
                    </th>
                    <td className="px-4 py-2 text-slate-700">{dateOf(mapping.savedAt)}</td>
                    <td className="px-4 py-2 text-slate-700">{mapping.savedBy ?? '—'}</td>
                    <td className="px-4 py-2 text-slate-700">
                      {imported} of {plural(mapping.columns.length, 'column')} imported
                    </td>
                    <td className="px-4 py-2 text-slate-700">{remembered.onServer.has(mapping.fingerprint) ? 'For the team' : 'In this browser'}</td>
                    <td className="px-4 py-2 text-right">
                      <Button variant="ghost" disabled={busy === mapping.fingerprint} aria-label={`Forget the mapping of ${mapping.fileName}`} onClick={() => void forget(mapping)}>
                        Forget
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
