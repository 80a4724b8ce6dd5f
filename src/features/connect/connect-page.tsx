import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { connect as connectTo, consoleInfoQueryOptions, sandboxConnection, sandboxInfoQueryOptions } from '../../api/connect';
import { type Connection, forgetConnection, normalizeBaseUrl } from '../../api/connection-store';
import { useConnection } from '../../api/use-connection';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { PageHeader } from '../../components/page-header';

export function ConnectPage() {
  const connection = useConnection();
  const navigate = useNavigate();
  const sandbox = useQuery(sandboxInfoQueryOptions);
  const server = useQuery(consoleInfoQueryOptions);
  const serverKey = server.data?.mode === 'proxy' && server.data.key_held_by_server ? server.data : null;

  const connect = useMutation({ mutationFn: (next: Connection) => connectTo(next) });

  const connectAndGo = (next: Connection) =>
    connect.mutate(next, { onSuccess: () => void navigate({ to: '/' }) });

  const connectToSandbox = async () => {
    const next = await sandboxConnection();
    if (next) connectAndGo(next);
  };

  // The server adds its own key to every request: this browser stores and sends none.
  const connectThroughServer = (service: string) =>
    connectAndGo({ baseUrl: '', apiKey: '', label: service, workspace: null, sandbox: false, keyHeldByServer: true, remembered: false });

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Connect"
        description={
          serverKey
            ? 'This server talks to the shipment tracking service with its own API key, so the key never reaches this browser.'
            : 'The console talks to the shipment tracking service with your API key. The key stays in this browser and is sent only in the Authorization header.'
        }
      />
      {connection && (
        <div className="mb-6">
          <Alert
            tone="success"
            title={`Connected to ${connection.label}`}
            action={
              <Button variant="danger" onClick={() => { forgetConnection(); connect.reset(); }}>
                Disconnect
              </Button>
            }
          >
            {connection.workspace ? `Workspace ${connection.workspace}. ` : ''}
            {connection.keyHeldByServer
              ? 'The server holds the API key; this browser keeps none.'
              : connection.sandbox
                ? 'The sandbox’s demo key is kept on this device until you disconnect, so imports go on when the console is opened again.'
                : `The key is kept ${connection.remembered ? 'on this device until you disconnect' : 'for this browser tab only'}.`}
          </Alert>
        </div>
      )}
      {connect.isError && (
        <div className="mb-6">
          <Alert tone="error" title="Could not connect">
            {connect.error.message}
          </Alert>
        </div>
      )}
      {serverKey && (
        <section aria-labelledby="server-key-heading" className="mb-6 rounded-xl border border-brand-100 bg-white p-6 shadow-sm">
          <h2 id="server-key-heading" className="text-base font-semibold text-slate-900">The server holds the key</h2>
          <p className="mt-1 text-sm text-slate-600">
            This server forwards to {serverKey.service} and adds the API key itself, so this browser never stores or sends one.
          </p>
          <Button className="mt-4" onClick={() => connectThroughServer(serverKey.service)} disabled={connect.isPending}>
            Connect through this server
          </Button>
        </section>
      )}
      {sandbox.data && (
        <section aria-labelledby="sandbox-heading" className="mb-6 rounded-xl border border-brand-100 bg-white p-6 shadow-sm">
          <h2 id="sandbox-heading" className="text-base font-semibold text-slate-900">Local sandbox</h2>
          <p className="mt-1 text-sm text-slate-600">
            This server runs a local copy of the tracking service with a demo workspace ({sandbox.data.workspace.name}). Nothing leaves this machine. Its demo key is remembered on this device until you disconnect.
          </p>
          <Button className="mt-4" onClick={() => void connectToSandbox()} disabled={connect.isPending}>
            Use local sandbox
          </Button>
        </section>
      )}
      <KeyForm pending={connect.isPending} onSubmit={connectAndGo} />
    </div>
  );
}

function KeyForm({ pending, onSubmit }: { pending: boolean; onSubmit: (connection: Connection) => void }) {
  const id = useId();
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [urlError, setUrlError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const normalized = normalizeBaseUrl(baseUrl);
    if (normalized !== '' && !/^https?:\/\/[^/]+/.test(normalized)) {
      setUrlError('The service URL must start with https:// (or be left empty to use this server).');
      return;
    }
    setUrlError(null);
    const label = normalized === '' ? 'this server' : new URL(normalized).host;
    onSubmit({ baseUrl: normalized, apiKey: apiKey.trim(), label, workspace: null, sandbox: false, keyHeldByServer: false, remembered: remember });
  };

  return (
    <form onSubmit={submit} aria-labelledby={`${id}-heading`} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">Connect with an API key</h2>
      <p className="mt-1 text-sm text-slate-600">
        Get the key from your account dashboard. Leave the URL empty when this server forwards to the service (<code>UPSTREAM_URL</code>).
      </p>
      <div className="mt-5 grid gap-4">
        <div>
          <label htmlFor={`${id}-url`} className="block text-sm font-medium text-slate-800">Service URL</label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            placeholder="https://… (empty: this server)"
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? `${id}-url-error` : undefined}
            className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none"
          />
          {urlError && <p id={`${id}-url-error`} className="mt-1 text-sm text-red-700">{urlError}</p>}
        </div>
        <div>
          <label htmlFor={`${id}-key`} className="block text-sm font-medium text-slate-800">API key</label>
          <input
            id={`${id}-key`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            required
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm shadow-sm focus:border-brand-600 focus:outline-none"
          />
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} className="size-4 rounded border-slate-300" />
          Remember on this device
        </label>
      </div>
      <Button type="submit" className="mt-5" disabled={pending || apiKey.trim() === ''}>
        {pending ? 'Checking…' : 'Connect'}
      </Button>
    </form>
  );
}
