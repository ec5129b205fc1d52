import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeInterceptor } from '../../src/index.js';
import { CARDS, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let dispatcher: ReturnType<Agent['compose']>;
// The legacy integration keeps its legacy base URL; nothing may ever reach it.
const LEGACY_BASE = 'http://legacy-api.invalid';

beforeAll(async () => {
  sb = await startSandbox();
  dispatcher = new Agent().compose(bridgeInterceptor({ currentUrl: sb.currentUrl }));
});
afterAll(() => sb.close());

async function legacyFetch(method: string, path: string, body?: unknown) {
  const res = await fetch(`${LEGACY_BASE}${path}`, {
    method,
    headers: {
      'Limepay-SecretKey': KEYS.soloSk,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    dispatcher,
  } as unknown as RequestInit);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, type: res.headers.get('content-type') };
}

describe('bridgeInterceptor: an old Node integration on the current API with no gateway hop', () => {
  it('drives the card flow with 3DS, partial and full refunds against the current face', async () => {
    const token = async (card: string) =>
      (
        (await (
          await fetch(`${sb.currentUrl}/sandbox/card-tokens`, {
            method: 'POST',
            headers: { authorization: `Bearer ${KEYS.soloPk}`, 'content-type': 'application/json' },
            body: JSON.stringify({ cardNumber: card }),
          })
        ).json()) as { paymentTokenId: string }
      ).paymentTokenId;
    const before = { ...sb.sandbox.store.stats };

    const order = await legacyFetch('POST', '/orders', legacyOrder());
    expect(order.status).toBe(200);
    expect(order.type).toMatch(/^application\/json/);
    expect(order.body).toMatchObject({ internalOrderId: 'legacy-ref-1', amount: 10_000, status: 'created' });

    const paymentToken = await token(CARDS.threeDS);
    const challenge = await legacyFetch('POST', `/orders/${order.body.merchantOrderId}/pay`, {
      paymentToken,
      request3DS: true,
    });
    expect(challenge.status).toBe(403);
    expect(challenge.body.paymentActionRequired.redirectURL).toMatch(`${sb.currentUrl}/sandbox/3ds/`);
    const paid = await legacyFetch('POST', `/orders/${order.body.merchantOrderId}/pay`, {
      paymentToken,
      paymentActionRequired: challenge.body.paymentActionRequired,
    });
    expect(paid).toMatchObject({ status: 200, body: { transactionStatus: 'paid', type: 'paycard', amount: 10_000 } });

    const tx = paid.body.transactionId;
    const partial = await legacyFetch('POST', '/refunds', {
      transactionId: tx,
      refundAmount: { amount: 3_000, currency: 'AUD' },
    });
    expect(partial.body.refundId).toMatch(/^rfnd_/);
    expect((await legacyFetch('GET', `/transactions/${tx}`)).body).toMatchObject({
      status: 'partially_refunded',
      refundedAmount: 3_000,
    });
    await legacyFetch('POST', '/refunds', { transactionId: tx, refundAmount: { amount: 7_000, currency: 'AUD' } });
    const refunded = await legacyFetch('GET', `/transactions/${tx}`);
    expect(refunded.body).toMatchObject({ status: 'refunded', refundedAmount: 10_000 });
    expect(refunded.body.refunds.map((r: { amount: number }) => r.amount)).toEqual([3_000, 7_000]);

    const stats = sb.sandbox.store.stats;
    expect(stats.transactionsCreated - before.transactionsCreated).toBe(1);
    expect(stats.refundsCreated - before.refundsCreated).toBe(2);
  });

  it('answers a declined card and an unknown route with legacy errors', async () => {
    const order = await legacyFetch('POST', '/orders', legacyOrder());
    const token = (
      (await (
        await fetch(`${sb.currentUrl}/sandbox/card-tokens`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEYS.soloSk}`, 'content-type': 'application/json' },
          body: JSON.stringify({ cardNumber: CARDS.decline }),
        })
      ).json()) as { paymentTokenId: string }
    ).paymentTokenId;
    const declined = await legacyFetch('POST', `/orders/${order.body.merchantOrderId}/pay`, { paymentToken: token });
    expect(declined).toMatchObject({ status: 400, body: { statusCode: 400, errorCode: 'do_not_honor' } });
    expect(declined.body).toHaveProperty('errorTypeDescription', expect.any(String));
    const unknown = await legacyFetch('GET', '/v2/anything');
    expect(unknown).toMatchObject({ status: 404, body: { errorCode: 'route_not_mapped' } });
  });

  it('passes current-generation requests through unchanged', async () => {
    const res = await fetch(`${sb.currentUrl}/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.soloSk}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        CreateOnlineOrder: { referenceOrderId: 'direct', amount: { minorCurrencyUnits: 100, currency: 'AUD' } },
      }),
      dispatcher,
    } as unknown as RequestInit);
    expect(res.status).toBe(200);
    expect(
      ((await res.json()) as { OnlineOrder: { order: { referenceOrderId: string } } }).OnlineOrder.order
        .referenceOrderId,
    ).toBe('direct');
  });

  it('answers 502 upstream_error when the current API cannot be reached', async () => {
    const broken = new Agent().compose(bridgeInterceptor({ currentUrl: 'http://127.0.0.1:1' }));
    const res = await fetch(`${LEGACY_BASE}/orders/ordr_1`, {
      headers: { 'Limepay-SecretKey': KEYS.soloSk },
      dispatcher: broken,
    } as unknown as RequestInit);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { errorCode: string }).errorCode).toBe('upstream_error');
  });

  it('answers 504 upstream_timeout when the current API sends no answer in time, as the gateway does', async () => {
    // takes the request and never answers
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const slow = new Agent({ headersTimeout: 300 }).compose(
        bridgeInterceptor({ currentUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` }),
      );
      const res = await fetch(`${LEGACY_BASE}/orders/ordr_1`, {
        headers: { 'Limepay-SecretKey': KEYS.soloSk },
        dispatcher: slow,
      } as unknown as RequestInit);
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({
        statusCode: 504,
        errorCode: 'upstream_timeout',
        detail: 'the upstream did not answer in time (UND_ERR_HEADERS_TIMEOUT)',
      });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
