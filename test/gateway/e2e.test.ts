/** The gateway as a user runs it: the bin, spawned, in front of the sandbox on port 0. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { spawnGateway, tempJson } from '../helpers/gateway.js';
import { CARDS, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import type { Spawned } from '../helpers/spawn.js';

let sb: TestSandbox;
let gw: Spawned & { url: string };
let solo: Client;
let platform: Client;

beforeAll(async () => {
  sb = await startSandbox();
  const tokens = tempJson('tokens.json', { mtok_alpha_merchant_token: 'mcht_alpha' });
  gw = await spawnGateway([
    '--current-url',
    sb.currentUrl,
    '--legacy-url',
    sb.legacyUrl,
    '--merchant-tokens',
    tokens,
    '--service-key',
    KEYS.marketplace,
    '--mode',
    'L22=legacy',
  ]);
  solo = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
  platform = client(gw.url, { 'Limepay-Token': KEYS.marketplace });
}, 30_000);
afterAll(async () => {
  await gw?.stop();
  await sb?.close();
});

const token = async (key: string, card: string = CARDS.ok) =>
  (await client(sb.currentUrl, { authorization: `Bearer ${key}` }).post('/sandbox/card-tokens', { cardNumber: card }))
    .body.paymentTokenId as string;

describe('gateway in front of an unchanged legacy integration', () => {
  it('runs the card flow with the 3DS loop, then a partial and a full refund', async () => {
    const order = await solo.post('/orders', legacyOrder());
    expect(order.status).toBe(200);
    expect(order.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const paymentToken = await token(KEYS.soloSk, CARDS.threeDS);
    const challenge = await solo.post(`/orders/${order.body.merchantOrderId}/pay`, { paymentToken, request3DS: true });
    expect(challenge.status).toBe(403);
    const paid = await solo.post(`/orders/${order.body.merchantOrderId}/pay`, {
      paymentToken,
      paymentActionRequired: challenge.body.paymentActionRequired,
    });
    expect(paid.body).toMatchObject({ transactionStatus: 'paid', type: 'paycard', amount: 10_000 });
    const tx = paid.body.transactionId;
    expect(
      (await solo.post('/refunds', { transactionId: tx, refundAmount: { amount: 2_500, currency: 'AUD' } })).body
        .refundId,
    ).toMatch(/^rfnd_/);
    expect((await solo.get(`/transactions/${tx}`)).body).toMatchObject({
      status: 'partially_refunded',
      refundedAmount: 2_500,
    });
    await solo.post('/refunds', { transactionId: tx, refundAmount: { amount: 7_500, currency: 'AUD' } });
    const done = await solo.get(`/transactions/${tx}`);
    expect(done.body).toMatchObject({ status: 'refunded', refundedAmount: 10_000 });
    expect(done.body.refunds).toHaveLength(2);
  });

  it('captures part of an authorisation, and cancels another', async () => {
    const authorise = async () => {
      const order = await solo.post('/orders', legacyOrder());
      return (
        await solo.post(`/orders/${order.body.merchantOrderId}/pay`, {
          paymentToken: await token(KEYS.soloSk),
          authoriseOnly: true,
        })
      ).body;
    };
    const first = await authorise();
    expect(first.transactionStatus).toBe('not_captured');
    const captured = await solo.post(`/transactions/${first.transactionId}/authorisation:capture`, {
      captureAmount: { amount: 8_000, currency: 'AUD' },
    });
    expect(captured.body).toMatchObject({ status: 'paid', amount: 8_000 });
    const second = await authorise();
    const cancelled = await solo.delete(`/transactions/${second.transactionId}/authorisation`);
    expect(cancelled.body.status).toBe('cancelled');
  });

  it('lets a marketplace create, pay and refund for a sub-merchant through the platform paths', async () => {
    const order = await platform.post('/platforms/mktp_demo/merchants/mcht_alpha/orders', legacyOrder());
    expect(order.body).toMatchObject({ merchantId: 'mcht_alpha', platformId: 'mktp_demo' });
    const paid = await platform.post(
      `/platforms/mktp_demo/merchants/mcht_alpha/orders/${order.body.merchantOrderId}/pay`,
      { paymentToken: await token(KEYS.alphaPk) },
    );
    expect(paid.status).toBe(200);
    const refund = await platform.post('/platforms/mktp_demo/refunds', {
      transactionId: paid.body.transactionId,
      refundAmount: { amount: 10_000, currency: 'AUD' },
    });
    expect(refund.body.refundId).toMatch(/^rfnd_/);
    expect((await platform.post('/platforms/mktp_demo/merchants/mcht_solo/orders', legacyOrder())).status).toBe(403);
  });

  it('resolves a merchant token once, then serves it from the cache', async () => {
    const api = client(gw.url, { 'Limepay-MerchantToken': 'mtok_alpha_merchant_token' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.post('/orders', legacyOrder())));
    for (const a of answers) expect(a.body.merchantId).toBe('mcht_alpha');
    await api.post('/orders', legacyOrder());
    const metrics = (await client(gw.url).get('/metrics')).text;
    expect(metrics).toMatch(/^paybridge_merchant_key_lookups_total 1$/m);
  });

  it('forwards current-generation calls unchanged and routes in legacy mode to the legacy upstream', async () => {
    const current = await client(gw.url, { authorization: `Bearer ${KEYS.soloSk}` }).post('/orders', {
      CreateOnlineOrder: { referenceOrderId: 'direct', amount: { minorCurrencyUnits: 500, currency: 'AUD' } },
    });
    expect(current.body.OnlineOrder.order.referenceOrderId).toBe('direct');
    const legacyMode = await platform.get('/platforms/mktp_demo/merchants/mcht_beta');
    expect(legacyMode.body).toMatchObject({ merchantId: 'mcht_beta', platformId: 'mktp_demo' });
    const metrics = (await client(gw.url).get('/metrics')).text;
    expect(metrics).toMatch(/paybridge_requests_total\{route="L22",mode="legacy",status="200"\} 1/);
    expect(metrics).toMatch(/paybridge_requests_total\{route="current",mode="passthrough",status="200"\} \d+/);
    expect(metrics).toMatch(/paybridge_request_duration_seconds_bucket\{le="\+Inf",route="L1",mode="current"\} \d+/);
  });

  it('refuses a live_ key when no live upstream is configured, with a legacy 401', async () => {
    const res = await client(gw.url, { 'Limepay-SecretKey': 'live_sk_solo_secret_key' }).get('/orders/ordr_1');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      statusCode: 401,
      errorCode: 'unauthenticated',
      tracer: res.headers.get('x-request-id'),
    });
  });

  it('answers health and readiness', async () => {
    expect((await client(gw.url).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await client(gw.url).get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it('keeps every credential and card number out of its logs', async () => {
    await solo.post('/orders', { ...legacyOrder(), cardNumber: CARDS.ok });
    // the log lines of that request, once flushed (every second)
    await vi.waitFor(() => expect(gw.stdout()).toMatch(/"droppedFields":\["cardNumber"\]/), {
      timeout: 10_000,
      interval: 50,
    });
    await vi.waitFor(() => expect(gw.stdout()).toContain('"route":"L1"'), { timeout: 10_000, interval: 50 });
    const logs = gw.stdout();
    expect(logs).toContain('"route":"L1"');
    for (const secret of [KEYS.soloSk, KEYS.marketplace, KEYS.alphaPk, 'mtok_alpha_merchant_token', CARDS.ok])
      expect(logs).not.toContain(secret);
    // the unknown field was dropped, logged by path and counted
    expect(logs).toMatch(/"droppedFields":\["cardNumber"\]/);
    expect((await client(gw.url).get('/metrics')).text).toMatch(/^paybridge_dropped_fields_total\{route="L1"\} 1$/m);
  });
});
