// The service worker's global scope (tsconfig.sw.json): webworker's lib types `self` as any
// worker's; these are a service worker's parts it uses, and what the server writes first.

interface WorkerGlobalScope {
  /** Written by the server as the worker's first line (src/escoba/server/offline.py). */
  ESCOBA_OFFLINE: {
    version: string;
    files: string[];
    pages: { [address: string]: string };
  };
  readonly clients: Clients;
  skipWaiting(): Promise<void>;
}

interface WorkerGlobalScopeEventMap {
  install: ExtendableEvent;
  activate: ExtendableEvent;
  fetch: FetchEvent;
}
