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
    seen.push({
      url: req.url!,
      traceparent: req.headers.traceparent as string | undefined,
      tracestate: req.headers.tracestate as string | undefined,
    });
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

let current: Awaited<ReturnType<typeof echo>>;
let legacy: Awaited<ReturnType<typeof echo>>;
let gw: Awaited<ReturnType<typeof startGateway>>;
const logs = logSink();
beforeAll(async () => {
  current = await echo();
  legacy = await echo();
  gw = await startGateway(
    {
      upstreams: { sandbox: { current: current.url, legacy: legacy.url } },
      routes: { L3: 'legacy', L6: 'shadow', '*': 'current' },
      shadow: { learnSample: 0 },
    },
    logs.stream,
  );
});
afterAll(async () => {
  await gw.close();
  await current.close();
  await legacy.close();
});

describe('trace context', () => {
  it('reaches the upstream of a translated call, a passthrough, a legacy-mode route and both sides of a shadowed one, and the log line', async () => {
    const headers = { traceparent: PARENT, tracestate: 'vendor=1' };
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk, ...headers }).post('/refunds', {
      transactionId: 'tran_t1',
      refundAmount: { amount: 1, currency: 'AUD' },
    });
    await client(gw.url, { authorization: `Bearer ${KEYS.soloSk}`, ...headers }).get('/orders/ordr_t2');
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk, ...headers }).get('/orders/ordr_t3');
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk, ...headers }).get('/transactions/tran_t4');
    await gw.gateway.shadow.idle();
    gw.gateway.flushLogs();
    const calls = [...current.seen, ...legacy.seen];
    for (const url of ['/transactions/tran_t1', '/orders/ordr_t2', '/orders/ordr_t3', '/transactions/tran_t4'])
      expect(calls.filter((c) => c.url === url).length, url).toBeGreaterThan(0);
    // the shadowed read went to both generations, each carrying the trace
    expect(
      legacy.seen.some((c) => c.url === '/transactions/tran_t4') &&
        current.seen.some((c) => c.url === '/transactions/tran_t4'),
    ).toBe(true);
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

describe('OpenTelemetry spans, with an OTLP endpoint', () => {
  it("exports the gateway hop, the translation and the upstream call in the client's trace, the upstream carrying its own span", async () => {
    const exported: string[] = [];
    const collector: Server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        if (req.url === '/v1/traces') exported.push(text);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const up = await echo();
    const traced = await startGateway({
      upstreams: { sandbox: { current: up.url, legacy: up.url } },
      routes: { L3: 'legacy', '*': 'current' },
      otlpEndpoint: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    });
    try {
      await client(traced.url, { 'Limepay-SecretKey': KEYS.soloSk, traceparent: PARENT }).get('/transactions/tran_s1');
      await client(traced.url, { 'Limepay-SecretKey': KEYS.soloSk, traceparent: PARENT }).get('/orders/ordr_s2');
    } finally {
      await traced.close();
      await new Promise((r) => collector.close(r));
      await up.close();
    }
    const spans = exported.flatMap((body) =>
      (
        JSON.parse(body) as {
          resourceSpans: {
            scopeSpans: {
              spans: {
                traceId: string;
                spanId: string;
                parentSpanId?: string;
                name: string;
                kind: number;
                attributes: { key: string; value: Record<string, unknown> }[];
              }[];
            }[];
          }[];
        }
      ).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
    );
    const names = spans.map((s) => s.name).sort();
    expect(names).toEqual(['paybridge L3', 'paybridge L6', 'translate L6', 'upstream GET'].sort());
    expect(spans.every((s) => s.traceId === TRACE)).toBe(true);
    const hop = spans.find((s) => s.name === 'paybridge L6')!;
    expect(hop.parentSpanId).toBe('00f067aa0ba902b7');
    // each upstream call carried the traceparent of its own span, in the client's trace
    const call = spans.find((s) => s.name === 'upstream GET')!;
    expect(up.seen.find((c) => c.url === '/transactions/tran_s1')!.traceparent).toBe(`00-${TRACE}-${call.spanId}-01`);
    expect(up.seen.find((c) => c.url === '/orders/ordr_s2')!.traceparent).toBe(
      `00-${TRACE}-${spans.find((s) => s.name === 'paybridge L3')!.spanId}-01`,
    );
    // each span's kind (OTLP: 1 internal, 2 server, 3 client) and attributes: the route, the method, the current path without its query
    const described = Object.fromEntries(
      spans.map((s) => [
        s.name,
        { kind: s.kind, ...Object.fromEntries(s.attributes.map((a) => [a.key, Object.values(a.value)[0]])) },
      ]),
    );
    const hopAttributes = { 'paybridge.route': 'L6', 'http.request.method': 'GET' };
    expect(described).toEqual({
      'paybridge L3': {
        kind: 2,
        'paybridge.route': 'L3',
        'http.request.method': 'GET',
        'http.response.status_code': 404,
      },
      'paybridge L6': { kind: 2, ...hopAttributes, 'http.response.status_code': 404 },
      'translate L6': { kind: 1, ...hopAttributes, 'http.response.status_code': 404 },
      'upstream GET': {
        kind: 3,
        'http.request.method': 'GET',
        'url.path': '/transactions/tran_s1',
        'http.response.status_code': 404,
      },
    });
  });
});
