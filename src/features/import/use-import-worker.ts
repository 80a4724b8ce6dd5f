import { useEffect, useState } from 'react';
import { ImportWorkerClient } from './import-worker-client';

/** One worker client per import page, disposed with it. */
export function useImportWorker(): ImportWorkerClient {
  const [client] = useState(() => new ImportWorkerClient());
  useEffect(() => () => client.dispose(), [client]);
  return client;
}
