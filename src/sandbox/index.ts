import type { AddressInfo } from 'node:net';
import { OPEN_BROWSER_ACCESS } from './browser.js';
import { createCurrentFace } from './current/server.js';
import { DEFAULT_FIXTURES, type Fixtures } from './fixtures.js';
import { createLegacyFace } from './legacy/server.js';
import { Store } from './store.js';

export interface SandboxOptions {
  fixtures?: Fixtures;
  /** Delay before a PayTo agreement leaves Pending (default 2000 ms; 0 in tests). */
  agreementDelayMs?: number;
  now?: () => number;
  /** Page origins allowed to call the browser endpoints and frame the card fields (default `*`, the embedded demo). */
  allowedOrigins?: readonly string[];
}

export interface SandboxListenOptions {
  host?: string;
  /** Current face port; 0 picks a free one. */
  port?: number;
  /** Legacy face port; 0 picks a free one. */
  legacyPort?: number;
}

export interface RunningSandbox {
  currentUrl: string;
  legacyUrl: string;
}

/**
 * An in-memory payments service with both faces over one store.
 * @example
 * const sandbox = createSandbox({ agreementDelayMs: 0 });
 * const { currentUrl, legacyUrl } = await sandbox.listen({ port: 0, legacyPort: 0 });
 */
export function createSandbox(options: SandboxOptions = {}) {
  const fixtures = options.fixtures ?? DEFAULT_FIXTURES;
  const store = new Store({
    fixtures,
    ...(options.agreementDelayMs !== undefined ? { agreementDelayMs: options.agreementDelayMs } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const browser = { allowedOrigins: options.allowedOrigins ?? OPEN_BROWSER_ACCESS.allowedOrigins };
  const current = createCurrentFace(store, browser);
  const legacy = createLegacyFace(store, browser);
  let running: RunningSandbox | null = null;

  const urlOf = (app: typeof current, host: string) => {
    const address = app.server.address() as AddressInfo;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  };

  return {
    store,
    fixtures,
    current,
    legacy,
    async listen(listen: SandboxListenOptions = {}): Promise<RunningSandbox> {
      const host = listen.host ?? '127.0.0.1';
      await current.listen({ host, port: listen.port ?? 0 });
      await legacy.listen({ host, port: listen.legacyPort ?? 0 });
      running = { currentUrl: urlOf(current, host), legacyUrl: urlOf(legacy, host) };
      return running;
    },
    get urls(): RunningSandbox | null {
      return running;
    },
    async close(): Promise<void> {
      await Promise.all([current.close(), legacy.close()]);
    },
  };
}

export type Sandbox = ReturnType<typeof createSandbox>;
export { DEFAULT_FIXTURES, loadFixtures, type Fixtures } from './fixtures.js';
