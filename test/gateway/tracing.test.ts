/** W3C trace context crosses the gateway: a traceparent sent by the client reaches every upstream call and the access log line. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logSink, startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { KEYS } from '../helpers/sandbox.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = `00-${TRACE}-00f067aa0ba902b7-01`;

async function echo() {
  const seen: { url: string; traceparent?: string; tracestate?: string }[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    seen.push({ url: req.url!, traceparent: req.headers.traceparent as string | undefined, tracestate: req.headers.tracestate as string | undefined });
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 404, errorCode: 'not_found', message: 'x', detail: 'x', tracer: 't' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

let current: Awaited<ReturnType<typeof echo>>;
let legacy: Awaited<ReturnType<typeof echo>>;
let gw: Awaited<ReturnType<typeof startGateway>>;
const logs = logSink();
beforeAll(async () => {
  current = await echo();
  legacy = await echo();
  gw = await startGateway({ upstreams: { sandbox: { current: current.url, legacy: legacy.url } }, routes: { L3: 'legacy', L6: 'shadow', '*': 'current' }, shadow: { learnSample: 0 } }, logs.stream);
});
afterAll(async () => {
  await gw.close();
  await current.close();
  await legacy.close();
});

describe('trace context', () => {
  it('reaches the upstream of a translated call, a passthrough, a legacy-mode route and both sides of a shadowed one, and the log line', async () => {
    const headers = { traceparent: PARENT, tracestate: 'vendor=1' };
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk, ...headers }).post('/refunds', { transactionId: 'tran_t1', refundAmount: { amount: 1, currency: 'AUD' } });
    await client(gw.url, { authorization: `Bearer ${KEYS.soloSk}`, ...headers }).get('/orders/ordr_t2');
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk, ...headers }).get('/orders/ordr_t3');
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk, ...headers }).get('/transactions/tran_t4');
    await gw.gateway.shadow.idle();
    gw.gateway.flushLogs();
    const calls = [...current.seen, ...legacy.seen];
    for (const url of ['/transactions/tran_t1', '/orders/ordr_t2', '/orders/ordr_t3', '/transactions/tran_t4'])
      expect(calls.filter((c) => c.url === url).length, url).toBeGreaterThan(0);
    // the shadowed read went to both generations, each carrying the trace
    expect(legacy.seen.some((c) => c.url === '/transactions/tran_t4') && current.seen.some((c) => c.url === '/transactions/tran_t4')).toBe(true);
    for (const call of calls) expect(call, call.url).toMatchObject({ traceparent: PARENT, tracestate: 'vendor=1' });
    const lines = logs.records().filter((r) => r.msg === 'request');
    expect(lines.length).toBe(4);
    for (const line of lines) expect(line.traceId).toBe(TRACE);
  });

  it('drops a malformed traceparent instead of passing it to the current API', async () => {
    const before = current.seen.length;
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk, traceparent: 'not-a-trace' }).get('/transactions/tran_t5');
    expect(current.seen.slice(before).every((c) => c.traceparent === undefined)).toBe(true);
  });
});
