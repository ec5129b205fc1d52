/**
 * A passthrough's answer as the upstream gave it (src/gateway/routes/passthrough.ts): status, body and
 * end-to-end headers; an answer that has no body (HEAD, 204, 304) sends none, a HEAD's keeping the
 * length the upstream announced.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/gateway.js';
import { KEYS } from '../helpers/sandbox.js';

let origin: Server;
let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  origin = createServer((req, res) => {
    req.resume();
    const headers = { 'content-type': 'application/json', 'x-origin': 'kept', 'proxy-connection': 'keep-alive' };
    if (req.method === 'HEAD') return void res.writeHead(200, { ...headers, 'content-length': '42' }).end();
    if (req.url === '/no-content') return void res.writeHead(204, headers).end();
    if (req.url === '/not-modified') return void res.writeHead(304, headers).end();
    res.writeHead(201, headers).end('{"created":true}');
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  gw = await startGateway({ upstreams: { sandbox: { current: url, legacy: url } } });
});
afterAll(async () => {
  await gw.close();
  await new Promise((resolve) => origin.close(resolve));
});

/** A current-generation call (forwarded unchanged): its status, headers and the body bytes as they came. */
function send(
  method: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${gw.url}${path}`, { method, headers: { authorization: `Bearer ${KEYS.soloSk}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject).end();
  });
}

describe('a passthrough answer', () => {
  it('is the status, body and end-to-end headers the upstream gave, hop-by-hop ones dropped', async () => {
    const answer = await send('POST', '/orders');
    expect([answer.status, answer.body, answer.headers['x-origin'], answer.headers['proxy-connection']]).toEqual([
      201,
      '{"created":true}',
      'kept',
      undefined,
    ]);
  });

  it('to HEAD keeps the length announced and has no body', async () => {
    const answer = await send('HEAD', '/orders/ordr_1');
    expect([answer.status, answer.headers['content-length'], answer.body]).toEqual([200, '42', '']);
  });

  it('a 204 and a 304 have no body', async () => {
    const empty = await send('GET', '/no-content');
    expect([empty.status, empty.body, empty.headers['content-length']]).toEqual([204, '', undefined]);
    // (a 304 that announces a length is refused by undici before the gateway reads it: UND_ERR_RES_CONTENT_LENGTH_MISMATCH, a 502)
    const unchanged = await send('GET', '/not-modified');
    expect([unchanged.status, unchanged.body]).toEqual([304, '']);
  });
});
