/**
 * The gateway as a front door on the internet (issue: client timeouts, deadlines on every path):
 * slow clients are cut off with a legacy 408 while normal traffic flows; a trickling upstream hits the
 * one request deadline with a legacy 504 on every path; a shutdown never cuts off the answer to a write
 * that was sent upstream.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeSummary } from '../helpers/logs.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startFakeUpstream } from '../helpers/fake-upstream.js';
import { spawnGateway, startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { KEYS } from '../helpers/sandbox.js';

const facts = { slowCut: 0, normal: 0, deadlinePaths: 0, shutdown: 'not run' };
afterAll(() =>
  writeSummary(
    '2b-front-door',
    `front door: ${facts.slowCut} slow clients (slowloris headers, trickling bodies) cut off with a legacy 408 while ${facts.normal} normal requests answered 200; a trickling upstream hit the request deadline with a legacy 504 on ${facts.deadlinePaths} paths; SIGTERM during a slow refund: ${facts.shutdown}`,
  ),
);

/** Opens a connection, writes `head` at once and then `drip` one byte every `everyMs`; resolves with what came back and when the connection closed. */
function slowClient(url: string, head: string, drip: string, everyMs: number) {
  const { port } = new URL(url);
  const started = Date.now();
  return new Promise<{ text: string; closedAfterMs: number }>((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    let i = 0;
    const timer = setInterval(() => {
      if (i < drip.length && socket.writable) socket.write(drip[i++]!);
    }, everyMs);
    socket.on('connect', () => socket.write(head));
    socket.on('data', (d) => (text += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    // the test's own bound: a connection still open after 10 s has not been cut off
    setTimeout(() => socket.destroy(), 10_000).unref();
  });
}

describe('slow clients', () => {
  let gw: Awaited<ReturnType<typeof startGateway>>;
  let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
  beforeAll(async () => {
    fake = await startFakeUpstream('ok');
    gw = await startGateway({
      upstreams: { sandbox: { current: fake.url, legacy: fake.url } },
      client: { headersMs: 800, requestMs: 1_500 },
    });
  });
  afterAll(async () => {
    await gw.close();
    await fake.close();
  });

  it('cuts off slowloris headers and a trickling body with a legacy 408, while normal traffic keeps flowing', async () => {
    const slowHeaders = Array.from({ length: 3 }, () =>
      slowClient(
        gw.url,
        'GET /orders/ordr_1 HTTP/1.1\r\nHost: x\r\n',
        `Limepay-SecretKey: ${KEYS.soloSk}\r\nX-Padding: ${'a'.repeat(60)}\r\n\r\n`,
        200,
      ),
    );
    const body = JSON.stringify({ transactionId: 'tran_1', refundAmount: { amount: 100, currency: 'AUD' } });
    const slowBodies = Array.from({ length: 2 }, () =>
      slowClient(
        gw.url,
        `POST /refunds HTTP/1.1\r\nHost: x\r\nLimepay-SecretKey: ${KEYS.soloSk}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
        200,
      ),
    );
    // normal traffic alongside
    const normal: number[] = [];
    const deadline = Date.now() + 2_000;
    while (Date.now() < deadline) {
      normal.push((await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/orders/ordr_1')).status);
      await new Promise((r) => setTimeout(r, 100));
    }
    const cut = await Promise.all([...slowHeaders, ...slowBodies]);
    for (const { text, closedAfterMs } of cut) {
      expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({
        statusCode: 408,
        errorCode: 'request_timeout',
        tracer: expect.any(String),
      });
      expect(closedAfterMs).toBeLessThan(4_000);
    }
    expect(normal.length).toBeGreaterThan(5);
    expect(normal.every((s) => s === 200)).toBe(true);
    facts.slowCut = cut.length;
    facts.normal = normal.length;
    // the slow refund never reached the upstream
    expect(fake.count('PATCH /transactions/tran_1')).toBe(0);
  });
});

describe('one deadline per request, on every path', () => {
  let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
  beforeAll(async () => {
    fake = await startFakeUpstream('trickle');
  });
  afterAll(() => fake.close());

  it('answers a trickling upstream with a legacy 504 at the deadline: translated, legacy mode, current passthrough, shadow primary', async () => {
    // undici's headers and body timeouts are far away: only the request deadline can stop a trickle
    const timeouts = { headersMs: 20_000, bodyMs: 20_000, requestMs: 1_000 };
    const paths: [string, Record<string, unknown>, string, Record<string, string>][] = [
      ['translated', { '*': 'current' }, '/transactions/tran_1', { 'Limepay-SecretKey': KEYS.soloSk }],
      ['legacy mode', { '*': 'legacy' }, '/orders/ordr_1', { 'Limepay-SecretKey': KEYS.soloSk }],
      ['current passthrough', { '*': 'current' }, '/orders/ordr_1', { authorization: `Bearer ${KEYS.soloSk}` }],
      ['shadow primary', { '*': 'shadow' }, '/orders/ordr_1', { 'Limepay-SecretKey': KEYS.soloSk }],
    ];
    for (const [name, routes, path, headers] of paths) {
      const gw = await startGateway({
        upstreams: { sandbox: { current: fake.url, legacy: fake.url } },
        routes: routes as never,
        timeouts,
      });
      try {
        const started = Date.now();
        const res = await client(gw.url, headers).get(path);
        const took = Date.now() - started;
        expect(res.status, name).toBe(504);
        expect(res.body, name).toMatchObject({
          statusCode: 504,
          errorCode: 'upstream_timeout',
          tracer: res.headers.get('x-request-id'),
        });
        expect(took, name).toBeGreaterThanOrEqual(900);
        expect(took, name).toBeLessThan(3_000);
        facts.deadlinePaths++;
      } finally {
        await gw.close();
      }
    }
  });
});

describe('shutdown', () => {
  it('refuses a shutdown deadline shorter than a request can take', () => {
    expect(() => loadConfig({ file: { timeouts: { requestMs: 30_000, shutdownMs: 30_000 } } })).toThrow(ConfigError);
    expect(() => loadConfig({ file: { timeouts: { requestMs: 30_000, shutdownMs: 30_000 } } })).toThrow(
      /timeouts\.shutdownMs: must exceed/,
    );
    const config = loadConfig({ file: { timeouts: { requestMs: 2_000 }, client: { requestMs: 1_000 } } });
    expect(config.timeouts.shutdownMs).toBeGreaterThan(3_000);
  });

  it('answers a refund whose preflight read and write both run slow, then exits 0, on SIGTERM', async () => {
    const seen: string[] = [];
    let refunded = false;
    const detail = () => ({
      purchaseDetails: {
        orderId: 'ordr_1',
        merchantId: 'mcht_solo',
        marketplaceId: null,
        referenceOrderId: 'r',
        amount: { minorCurrencyUnits: 10_000, currency: 'AUD' },
        surchargeAmount: 0,
        refundedAmount: refunded ? 500 : 0,
        merchantName: 'Solo',
        transactionId: 'tran_slow',
        orderType: 'online',
        payType: 'PayInFull',
        description: null,
        orderMetadata: null,
        status: refunded ? 'partially_refunded' : 'paid',
        refundIds: refunded ? ['rfnd_slow'] : [],
        disputeId: null,
        disputeIds: [],
        paidOn: '2026-11-22',
        createdAt: '2026-11-22T00:00:00.000Z',
        updatedAt: '2026-11-22T00:00:00.000Z',
      },
    });
    const slow: Server = createServer((req, res) => {
      req.resume();
      seen.push(`${req.method} ${req.url}`);
      setTimeout(() => {
        if (req.method === 'PATCH') refunded = true;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(detail()));
      }, 700);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const gw = await spawnGateway([
      '--current-url',
      `http://127.0.0.1:${(slow.address() as AddressInfo).port}`,
      '--request-timeout-ms',
      '3000',
      '--client-request-timeout-ms',
      '1000',
    ]);
    try {
      const refund = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).post('/refunds', {
        transactionId: 'tran_slow',
        refundAmount: { amount: 500, currency: 'AUD' },
      });
      // in flight: its preflight read is at the upstream (each answer comes 700 ms later)
      await vi.waitFor(() => expect(seen).toContain('GET /transactions/tran_slow'), { timeout: 10_000, interval: 10 });
      gw.child.kill('SIGTERM');
      const answer = await refund;
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ refundId: 'rfnd_slow' });
      expect(await gw.exited).toBe(0);
      expect(seen).toEqual(['GET /transactions/tran_slow', 'PATCH /transactions/tran_slow']);
      facts.shutdown = 'the refund answered 200 with its id, exit 0';
    } finally {
      await gw.stop();
      await new Promise((r) => slow.close(r));
    }
  });
});
