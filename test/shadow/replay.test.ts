/**
 * Shadow mode over one store: the sandbox's legacy face is the legacy upstream, its current face the
 * current upstream. A replay of real legacy traffic is compared route by route, and the sandbox's
 * own counts prove every pay and refund ran exactly once.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShadowReport } from '../../src/shadow/ledger.js';
import { client, type Client } from '../helpers/http.js';
import { startGateway } from '../helpers/gateway.js';
import { legacyError } from '../helpers/legacy-shapes.js';
import { logPath } from '../helpers/logs.js';
import { OPERATOR_TOKENS } from '../helpers/secrets.js';
import { CARDS, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

const OPERATOR = OPERATOR_TOKENS.replay;
let sb: TestSandbox;
let gw: Awaited<ReturnType<typeof startGateway>>;
let solo: Client;
const logFile = logPath('shadow-replay', 'jsonl');

beforeAll(async () => {
  sb = await startSandbox();
  gw = await startGateway({
    upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
    routes: { '*': 'shadow' },
    shadow: { log: logFile, readyAfter: 1, learnSample: 0.5 },
    operatorToken: OPERATOR,
    // L14 (Query Customers) takes no merchant key: the operator's marketplace key, as npm start configures it
    serviceKey: KEYS.operator,
  });
  solo = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
});
afterAll(async () => {
  await gw.close();
  await sb.close();
});

const token = async (card: string) =>
  (
    await client(sb.currentUrl, { authorization: `Bearer ${KEYS.soloPk}` }).post('/sandbox/card-tokens', {
      cardNumber: card,
    })
  ).body.paymentTokenId as string;

async function report(): Promise<ShadowReport> {
  await gw.gateway.shadow.idle();
  const res = await client(gw.url, { authorization: `Bearer ${OPERATOR}` }).get('/_paybridge/report');
  expect(res.status).toBe(200);
  return res.body;
}

describe('shadow mode replay', () => {
  it('compares every route of the card flow, 3DS, refunds and customer calls, all matching, with each pay and refund run once', async () => {
    const before = { ...sb.sandbox.store.stats };
    let pays = 0;
    for (const card of [CARDS.ok, CARDS.threeDS]) {
      const order = await solo.post('/orders', legacyOrder());
      expect(order.status).toBe(200);
      const paymentToken = await token(card);
      let paid = await solo.post(`/orders/${order.body.merchantOrderId}/pay`, {
        paymentToken,
        request3DS: card === CARDS.threeDS,
      });
      if (paid.status === 403)
        paid = await solo.post(`/orders/${order.body.merchantOrderId}/pay`, {
          paymentToken,
          paymentActionRequired: paid.body.paymentActionRequired,
        });
      expect(paid.status).toBe(200);
      pays++;
      const tx = paid.body.transactionId;
      expect((await solo.get(`/orders/${order.body.merchantOrderId}`)).body.status).toBe('paid');
      expect(
        (await solo.post('/refunds', { transactionId: tx, refundAmount: { amount: 4_000, currency: 'AUD' } })).status,
      ).toBe(200);
      expect(
        (await solo.post('/refunds', { transactionId: tx, refundAmount: { amount: 6_000, currency: 'AUD' } })).status,
      ).toBe(200);
      expect((await solo.get(`/transactions/${tx}`)).body.status).toBe('refunded');
      expect(
        (await solo.get(`/transactions?merchantOrderId=${order.body.merchantOrderId}`)).body.transactions,
      ).toHaveLength(1);
    }
    const customer = await solo.post('/customers/consumer', {
      internalCustomerId: 'crm-shadow',
      email: 'shadow@example.com',
      firstName: 'Sha',
      lastName: 'Dow',
    });
    expect(customer.status).toBe(200);
    expect(
      (await solo.post('/customers/organisation', { businessName: 'Shadow Pty', email: 'org@example.com' })).status,
    ).toBe(200);
    expect((await solo.get('/merchants/mcht_solo/customers?email=shadow@example.com')).body.customers).toHaveLength(1);
    expect((await solo.get('/merchants/mcht_solo/customers/cust_alice/payments/sources')).status).toBe(200);

    const result = await report();
    const byRoute = Object.fromEntries(result.routes.map((r) => [r.route, r]));
    for (const route of ['L1', 'L3', 'L4', 'L6', 'L7', 'L13', 'L14', 'L15', 'L17', 'L18']) {
      expect(byRoute[route], route).toBeDefined();
      expect(byRoute[route]!.compared, route).toBeGreaterThan(0);
      expect(byRoute[route]!.topDiffs, route).toEqual([]);
      expect(byRoute[route]!.matchRate, route).toBe(1);
      // a customer upsert has nothing to read back: its translation is validated, never evidence of readiness
      // customer upserts are checked too: the customer the legacy answer names holds what the translation asks
      expect(byRoute[route]!.ready, route).toBe(true);
    }
    // writes were read back (orders, transactions) or validated (customers), never sent twice
    // the writes compared as writes: the state each left, its effect and its answer
    expect(byRoute.L1!.methods).toEqual({ write: 2 });
    expect(byRoute.L4!.methods.write).toBe(3);
    // every refund is judged on its own refund, whatever refund came after it: none raced
    expect(byRoute.L7!.methods).toEqual({ write: 4 });
    expect(byRoute.L7!.skipped).toEqual({});
    expect(byRoute.L13!.methods).toEqual({ write: 1 });
    expect(byRoute.L6!.methods.compare).toBe(2);

    const stats = sb.sandbox.store.stats;
    expect(stats.transactionsCreated - before.transactionsCreated).toBe(pays);
    expect(stats.refundsCreated - before.refundsCreated).toBe(4);
    expect(stats.ordersCreated - before.ordersCreated).toBe(2);
    expect(stats.threeDSChallenges - before.threeDSChallenges).toBe(1);
    expect(stats.customersCreated - before.customersCreated).toBe(2);

    // one JSON line per comparison, secrets redacted
    const lines = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const comparisons = lines.filter((l) => l.type === 'comparison');
    expect(comparisons.length).toBe(result.totals.compared);
    expect(comparisons[0]).toMatchObject({
      route: expect.stringMatching(/^L\d+$/),
      requestId: expect.any(String),
      primary: { status: expect.any(Number), latencyMs: expect.any(Number) },
    });
    // latencies to a tenth of a millisecond on both sides (the primary's was the raw double)
    const tenths = comparisons.flatMap((c) => [c.primary.latencyMs, ...(c.candidate ? [c.candidate.latencyMs] : [])]);
    expect(tenths.filter((ms: number) => Math.round(ms * 10) / 10 !== ms)).toEqual([]);
    const text = readFileSync(logFile, 'utf8');
    expect(text).not.toContain(KEYS.soloSk);
    expect(text).toContain('[redacted]');
  });

  it('refuses the operator report without the token, in the error shape with a tracer', async () => {
    for (const res of [
      await client(gw.url).get('/_paybridge/report'),
      await client(gw.url, { authorization: 'Bearer wrong-token-wrong-token' }).get('/_paybridge/'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(legacyError.parse(res.body)).toMatchObject({
        statusCode: 401,
        errorCode: 'unauthenticated',
        detail: 'Authorization: the operator token is missing or wrong',
        tracer: res.headers.get('x-request-id'),
      });
    }
    // a gateway without an operator token has no report at all
    const closed = await startGateway({ upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } } });
    try {
      const res = await client(closed.url, { authorization: `Bearer ${OPERATOR}` }).get('/_paybridge/report');
      expect([res.status, legacyError.parse(res.body).errorCode]).toEqual([404, 'not_found']);
    } finally {
      await closed.close();
    }
    // the page takes the token from the header alone: one in the URL would land in access logs and histories
    expect((await client(gw.url).get(`/_paybridge/?token=${OPERATOR}`)).status).toBe(401);
    const page = await client(gw.url, { authorization: `Bearer ${OPERATOR}` }).get('/_paybridge/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<table id="routes">');
  });
});
