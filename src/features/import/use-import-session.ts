import { createContext, createElement, useContext, useEffect, useState, type ReactNode } from 'react';
import { ImportSession } from './import-session';

const SessionContext = createContext<ImportSession | null>(null);

/**
 * The import page's one worker session, made and disposed here; every component under it reaches
 * the same session with useImportSession() instead of receiving it as a prop.
 */
export function ImportSessionProvider({ children, session: given }: { children: ReactNode; session?: ImportSession }) {
  const [session] = useState(() => given ?? new ImportSession());
  useEffect(() => {
    // The reader's start (its script fetched and compiled, ~200 ms) is paid while the page waits
    // for a file, not after the drop.
    session.warm();
    return () => session.cancel();
  }, [session]);
  return createElement(SessionContext.Provider, { value: session }, children);
}

export function useImportSession(): ImportSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useImportSession() is used outside <ImportSessionProvider>.');
  return session;
}
