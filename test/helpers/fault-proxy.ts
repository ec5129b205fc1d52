/**
 * A proxy in front of a real upstream (the sandbox's current or legacy face) that records every
 * request reaching it, by the gateway's `x-request-id`, and plants a fault on the requests a test
 * names: the request is passed on (the upstream acts on it: money moves), then its answer is lost
 * (the connection reset before or after the answer's headers), withheld (a hang), or held back
 * for a while (a slow upstream).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request } from 'undici';
import { routeCalls } from './route-calls.js';
import { startSandbox } from './sandbox.js';

export type Fault = 'resetBeforeHeaders' | 'resetAfterHeaders' | 'hang' | { delayMs: number };

/** One request that reached the proxy. */
interface Seen {
  /** Its x-request-id ('' without one). */
  id: string;
  method: string;
  /** With its query string. */
  path: string;
}

interface Plant {
  when: (seen: Seen) => boolean;
  fault: Fault;
  /** How many more requests it hits. */
  left: number;
}

// hop-by-hop and framing headers: undici sets its own
const NOT_PASSED = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'expect']);

async function startFaultProxy(target: string) {
  const seen: Seen[] = [];
  const plants: Plant[] = [];
  const sockets = new Set<Socket>();
  /** Exchanges the proxy has not finished with (a held answer included), and who waits for none. */
  let open = 0;
  let waiters: (() => void)[] = [];
  const settle = () => {
    if (--open > 0) return;
    for (const w of waiters) w();
    waiters = [];
  };

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const id = String(req.headers['x-request-id'] ?? '');
    const one: Seen = { id, method: req.method ?? 'GET', path: req.url ?? '/' };
    seen.push(one);
    const plant = plants.find((p) => p.left > 0 && p.when(one));
    if (plant) plant.left--;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !NOT_PASSED.has(name)) headers[name] = value;
    const answer = await request(`${target}${one.path}`, {
      method: one.method as 'GET',
      headers,
      body: body.length > 0 ? body : null,
    });
    const text = Buffer.from(await answer.body.arrayBuffer());
    const fault = plant?.fault;
    if (fault === 'resetBeforeHeaders') return void req.socket.destroy();
    if (fault === 'hang') return new Promise<void>((resolve) => res.on('close', resolve));
    if (typeof fault === 'object') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !NOT_PASSED.has(name)) out[name] = value;
    out['content-length'] = String(text.length);
    res.writeHead(answer.statusCode, out);
    if (fault !== 'resetAfterHeaders') return void res.end(text);
    // the headers and part of the body on the wire, then the connection reset
    res.write(text.subarray(0, Math.floor(text.length / 2)), () => req.socket.destroy());
  }

  const server = createServer((req, res) => {
    open++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).then(settle, (err: Error) => {
        if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' }).end(`fault proxy: ${err.message}`);
        settle();
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    /** The requests of one x-request-id, as "METHOD path". */
    of: (id: string) => seen.filter((s) => s.id === id).map((s) => `${s.method} ${s.path}`),
    /** Plants `fault` on the next `times` requests `when` picks. */
    plant(when: (seen: Seen) => boolean, fault: Fault, times = 1): void {
      plants.push({ when, fault, left: times });
    },
    /** Resolves once every request received so far is done with (answered, reset, or its hang ended by the caller). */
    idle: () => (open === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    async close(): Promise<void> {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type FaultProxy = Awaited<ReturnType<typeof startFaultProxy>>;

/** The sandbox with a fault proxy in front of each face, and one valid call per route on it. */
export async function proxiedSandbox() {
  const sb = await startSandbox();
  const current = await startFaultProxy(sb.currentUrl);
  const legacy = await startFaultProxy(sb.legacyUrl);
  return {
    sb,
    current,
    legacy,
    calls: routeCalls(sb),
    async close(): Promise<void> {
      await current.close();
      await legacy.close();
      await sb.close();
    },
  };
}
export type ProxiedSandbox = Awaited<ReturnType<typeof proxiedSandbox>>;
