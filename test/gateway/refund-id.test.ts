/**
 * L7: the refundId a client gets is the refund its own call created (legacy-api.md section 4), even
 * with concurrent refunds on one transaction through an upstream that commits first and answers later,
 * with the state at answer time (which can hold other calls' refunds).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { startGateway } from '../helpers/gateway.js';
import { KEYS } from '../helpers/sandbox.js';

const TX = 'tran_concurrent1';
const refunds: { id: string; amount: number }[] = [];
let patches = 0;

function detail() {
  const refunded = refunds.reduce((sum, r) => sum + r.amount, 0);
  return {
    purchaseDetails: {
      orderId: 'ordr_c1',
      merchantId: 'mcht_solo',
      marketplaceId: null,
      referenceOrderId: 'r',
      amount: { minorCurrencyUnits: 100_000, currency: 'AUD' },
      surchargeAmount: 0,
      refundedAmount: refunded,
      merchantName: 'Solo',
      transactionId: TX,
      orderType: 'online',
      payType: 'PayInFull',
      description: null,
      orderMetadata: null,
      status: refunded > 0 ? 'partially_refunded' : 'paid',
      refundIds: refunds.map((r) => r.id),
      disputeId: null,
      disputeIds: [],
      paidOn: '2026-11-22',
      createdAt: '2026-11-22T00:00:00.000Z',
      updatedAt: '2026-11-22T00:00:00.000Z',
    },
    paymentMethod: { paymentMethodType: 'Card', accountHint: '4242', paymentStatus: 'Settled', paymentFailure: null },
    serviceFees: { variableAmount: 0, fixedAmount: 0, taxAmount: 0, totalAmount: 0 },
    customerDetails: null,
    timelines: refunds.map((r) => ({
      eventType: 'PaymentRefunded',
      eventTime: '2026-11-22T00:00:00.000Z',
      amount: r.amount,
      identifier: r.id,
    })),
    transfers: [],
  };
}

/** Commits a refund the moment the PATCH arrives, answers 30-80 ms later with the state of that moment. */
const upstream: Server = createServer((req, res) => {
  let text = '';
  req.on('data', (c) => (text += c));
  req.on('end', () => {
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(detail()));
    if (req.method === 'GET') return answer();
    patches++;
    const { CreateRefund } = JSON.parse(text) as { CreateRefund: { refundAmount: number } };
    refunds.push({ id: `rfnd_c${refunds.length + 1}x`, amount: CreateRefund.refundAmount });
    setTimeout(answer, 30 + Math.random() * 50);
  });
});

let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  gw = await startGateway({
    upstreams: { sandbox: { current: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` } },
  });
});
afterAll(async () => {
  await gw.close();
  upstream.close();
});

describe('refundId under concurrent refunds of one transaction', () => {
  it('gives each of 10 concurrent clients the id of the refund its own call created', async () => {
    const api = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
    // one amount for all: the ids cannot be told apart by amount, only by what each call created
    const amounts = Array.from({ length: 10 }, () => 250);
    const answers = await Promise.all(
      amounts.map((amount) => api.post('/refunds', { transactionId: TX, refundAmount: { amount, currency: 'AUD' } })),
    );
    expect(answers.map((a) => a.status)).toEqual(amounts.map(() => 200));
    expect(patches).toBe(10);
    // every refund id answered exactly once, each one a refund the upstream made
    const ids = answers.map((a) => a.body.refundId as string);
    expect(ids.every((id) => refunds.some((r) => r.id === id))).toBe(true);
    expect(new Set(ids).size).toBe(10);
  });
});
