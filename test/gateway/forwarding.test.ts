/**
 * What a passthrough and a translated call put on the upstream's wire: the client's end-to-end headers
 * (a repeated one line by line), never its hop-by-hop ones, the gateway's forwarding headers over the
 * client's, and one x-request-id.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/gateway.js';
import { KEYS } from '../helpers/sandbox.js';

/** An origin that keeps each request's raw header lines, by path. */
async function recorder() {
  const seen = new Map<string, string[][]>();
  const server: Server = createServer((req, res) => {
    req.resume();
    const lines: string[][] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      lines.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
    seen.set(req.url!, lines);
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ statusCode: 404, errorCode: 'not_found', message: 'x', detail: 'x', tracer: 't' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => server.close(r)),
  };
}

/** A GET written byte for byte (HTTP clients refuse some of these headers), the connection closed after it; resolves with the status. */
function rawGet(base: string, path: string, headers: string[]): Promise<number> {
  const { hostname, port } = new URL(base);
  let head = `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\n`));
    socket
      .setEncoding('latin1')
      .on('data', (d: string) => (answer += d))
      .on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
  });
}

const valuesOf = (lines: string[][] | undefined, name: string) =>
  (lines ?? []).filter(([n]) => n === name).map(([, v]) => v);

let current: Awaited<ReturnType<typeof recorder>>;
let legacy: Awaited<ReturnType<typeof recorder>>;
let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  current = await recorder();
  legacy = await recorder();
  gw = await startGateway({
    upstreams: { sandbox: { current: current.url, legacy: legacy.url } },
    routes: { L3: 'legacy', '*': 'current' },
  });
});
afterAll(async () => {
  await gw.close();
  await current.close();
  await legacy.close();
});

const CLIENT_HEADERS = [
  'X-Custom',
  'a',
  'X-Custom',
  'b',
  'X-Forwarded-Proto',
  'gopher',
  'Keep-Alive',
  'timeout=5',
  'Proxy-Authorization',
  'Basic c2VjcmV0Og==',
  'TE',
  'trailers',
  'X-Request-Id',
  'client-req-0001',
];

describe('forwarded headers', () => {
  it('a current-generation passthrough and a legacy-mode route send the client headers line by line, hop-by-hop ones dropped, forwarding and request id set once', async () => {
    const cases = [
      {
        path: '/orders/ordr_fw1',
        credential: ['Authorization', `Bearer ${KEYS.soloSk}`],
        upstream: () => current,
        name: 'authorization',
      },
      {
        path: '/orders/ordr_fw2',
        credential: ['Limepay-SecretKey', KEYS.soloSk],
        upstream: () => legacy,
        name: 'limepay-secretkey',
      },
    ];
    for (const c of cases) {
      expect(await rawGet(gw.url, c.path, [...c.credential, ...CLIENT_HEADERS]), c.path).toBe(404);
      const lines = c.upstream().seen.get(c.path);
      expect(lines, c.path).toBeDefined();
      expect(valuesOf(lines, 'x-custom'), c.path).toEqual(['a', 'b']);
      expect(valuesOf(lines, 'x-forwarded-proto'), c.path).toEqual(['http']);
      expect(valuesOf(lines, 'x-forwarded-host'), c.path).toEqual([gw.url.slice('http://'.length)]);
      expect(valuesOf(lines, 'x-request-id'), c.path).toEqual(['client-req-0001']);
      expect(valuesOf(lines, c.name), c.path).toEqual([c.credential[1]]);
      for (const hop of ['keep-alive', 'proxy-authorization', 'te'])
        expect(valuesOf(lines, hop), `${c.path} ${hop}`).toEqual([]);
    }
  });

  it('a translated call sends its own headers, the forwarding ones and one x-request-id, none of the client extras', async () => {
    expect(await rawGet(gw.url, '/transactions/tran_fw3', ['Limepay-SecretKey', KEYS.soloSk, ...CLIENT_HEADERS])).toBe(
      404,
    );
    const lines = current.seen.get('/transactions/tran_fw3');
    expect(valuesOf(lines, 'authorization')).toEqual([`Bearer ${KEYS.soloSk}`]);
    expect(valuesOf(lines, 'x-request-id')).toEqual(['client-req-0001']);
    expect(valuesOf(lines, 'x-forwarded-proto')).toEqual(['http']);
    expect(valuesOf(lines, 'x-custom')).toEqual([]);
    expect(valuesOf(lines, 'limepay-secretkey')).toEqual([]);
  });
});
