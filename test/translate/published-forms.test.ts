/**
 * The gateway against a current API written here from the published forms, not from the sandbox: each
 * money write answered in the seed's flat form, the sandbox's wrapped form, the payment-authorisation
 * guide's form (no transactionDetails, no surchargeAmount), the reference's form (figures under
 * transactionDetails, keys we do not know), a bare minimum, and nothing readable at all; lists that
 * ignore their filter and come in pages. A 2xx to a money write is never answered as a 5xx: what the
 * legacy answer needs and the answer lacks is read from the resource (reads only: the write is sent once).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/gateway.js';
import { client, type Client } from '../helpers/http.js';
import { KEYS } from '../helpers/sandbox.js';

const at = '2026-05-01T10:00:00.000Z';
const purchase = (id: string, orderId: string, extra: object = {}) => ({
  transactionId: id,
  orderId,
  merchantId: 'mcht_solo',
  referenceOrderId: `ref-${orderId}`,
  amount: { minorCurrencyUnits: 2500, currency: 'AUD' },
  surchargeAmount: 40,
  refundedAmount: 0,
  payType: 'PayInFull',
  status: 'paid',
  refundIds: [],
  createdAt: at,
  updatedAt: at,
  // the reference's sample has fields the mappings never read
  availableOn: '2026-05-03',
  merchantName: 'Solo',
  ...extra,
});
/** A transaction detail as the reference shows it: no transfers, no timelines, card details we do not read. */
const referenceDetail = (id: string, orderId: string, extra: object = {}) => ({
  purchaseDetails: purchase(id, orderId, extra),
  paymentMethod: { paymentMethodType: 'Card', cardBrand: 'Visa', cardLast4: '4242', card3DSFlow: 'frictionless' },
  serviceFees: { totalAmount: 74 },
  customerDetails: { customerId: 'cust_alice', customerName: 'Alice' },
});

type Form = (path: string) => { status: number; body: unknown };
interface Upstream {
  url: string;
  /** Every call that reached the upstream, `METHOD path`. */
  calls: string[];
  /** The body of each call, by `METHOD path`. */
  bodies: Map<string, unknown>;
  /** The answer for each call, by `METHOD path-pattern`. */
  forms: Map<string, Form>;
  close: () => Promise<unknown>;
}

async function publishedUpstream(): Promise<Upstream> {
  const calls: string[] = [];
  const bodies = new Map<string, unknown>();
  const forms = new Map<string, Form>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url!;
      calls.push(`${req.method} ${url}`);
      if (chunks.length) bodies.set(`${req.method} ${url}`, JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const path = url.split('?')[0]!;
      // the form set last wins (a test sets its own over the default)
      const key = [...forms.keys()].reverse().find((k) => {
        const [method, pattern] = k.split(' ') as [string, string];
        return method === req.method && new RegExp(`^${pattern}$`).test(path);
      });
      const answer = key
        ? forms.get(key)!(url)
        : { status: 404, body: { statusCode: 404, errorCode: 'not_found', message: 'no', detail: path, tracer: 't' } };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    bodies,
    forms,
    close: () => new Promise((r) => server.close(r)),
  };
}

let upstream: Upstream;
let gw: Awaited<ReturnType<typeof startGateway>>;
let secret: Client;
let platform: Client;
beforeAll(async () => {
  upstream = await publishedUpstream();
  gw = await startGateway({
    upstreams: { sandbox: { current: upstream.url } },
    routes: { '*': 'current' },
    serviceKey: KEYS.operator,
  });
  secret = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
  platform = client(gw.url, { 'Limepay-Token': KEYS.marketplace });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.calls.length = 0;
  upstream.bodies.clear();
  upstream.forms.clear();
  upstream.forms.set('GET /transactions/tran_[a-z0-9]+', (path) => ({
    status: 200,
    body: referenceDetail(path.split('/')[2]!.split('?')[0]!, 'ordr_pay1'),
  }));
});

const written = (method: string, path: string) =>
  upstream.calls.filter((c) => c.startsWith(`${method} ${path}`)).length;
const expectedPayment = {
  transactionId: 'tran_p1',
  transactionStatus: 'paid',
  amount: 2500,
  currency: 'AUD',
  surchargeAmount: 40,
  type: 'paycard',
};

describe('a card payment (L4) answered in each published form', () => {
  const pay = () => secret.post('/orders/ordr_pay1/pay', { paymentToken: 'ptkn_1', request3DS: false });
  const forms: [string, unknown, number][] = [
    [
      "the seed's flat form",
      {
        transactionId: 'tran_p1',
        transactionStatus: 'paid',
        amount: 2500,
        currency: 'AUD',
        surchargeAmount: 40,
        payType: 'payinfull',
      },
      0,
    ],
    [
      "the sandbox's form (flat fields in PayOrderComplete, type beside payType)",
      {
        PayOrderComplete: {
          transactionId: 'tran_p1',
          transactionStatus: 'paid',
          amount: 2500,
          currency: 'AUD',
          surchargeAmount: 40,
          payType: 'payinfull',
          type: 'payinfull',
        },
      },
      0,
    ],
    [
      "the reference's form (figures under transactionDetails, unknown keys)",
      {
        PayOrderComplete: {
          transactionId: 'tran_p1',
          transactionStatus: 'paid',
          transactionDetails: referenceDetail('tran_p1', 'ordr_pay1'),
        },
      },
      0,
    ],
    [
      'a mix: figures flat and under transactionDetails',
      {
        PayOrderComplete: {
          transactionId: 'tran_p1',
          amount: 2500,
          transactionDetails: {
            purchaseDetails: {
              amount: { minorCurrencyUnits: 2500, currency: 'AUD' },
              surchargeAmount: 40,
              payType: 'PayInFull',
              status: 'paid',
            },
          },
        },
      },
      0,
    ],
    // the guide's sample carries no surchargeAmount: the transaction is read for it
    [
      "the payment-authorisation guide's form",
      {
        PayOrderComplete: {
          transactionId: 'tran_p1',
          transactionStatus: 'paid',
          amount: 2500,
          currency: 'AUD',
          type: 'PayInFull',
        },
      },
      1,
    ],
    ['the transaction id alone', { PayOrderComplete: { transactionId: 'tran_p1' } }, 1],
  ];
  for (const [name, body, reads] of forms)
    it(`${name}: the legacy payment${reads ? ', completed by reading the transaction' : ''}; the pay sent once`, async () => {
      upstream.forms.set('POST /orders/ordr_pay1/pay', () => ({ status: 200, body }));
      const res = await pay();
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual(expectedPayment);
      expect(written('POST', '/orders/ordr_pay1/pay')).toBe(1);
      expect(written('GET', '/transactions/tran_p1')).toBe(reads);
    });

  it("a 2xx naming no transaction: the order's own transaction is found in its list (a filter not trusted), never a 5xx", async () => {
    upstream.forms.set('POST /orders/ordr_pay1/pay', () => ({ status: 200, body: { PayOrderComplete: {} } }));
    // a service that ignores the orderId filter answers the merchant's whole list
    upstream.forms.set('GET /transactions', () => ({
      status: 200,
      body: [referenceDetail('tran_other', 'ordr_other'), referenceDetail('tran_p1', 'ordr_pay1')],
    }));
    const res = await pay();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual(expectedPayment);
    expect(written('POST', '/orders/ordr_pay1/pay')).toBe(1);
  });

  it('a 2xx that cannot be completed (the read fails too) is a 202 answer_incomplete, never a 5xx a client would retry', async () => {
    upstream.forms.set('POST /orders/ordr_pay1/pay', () => ({ status: 201, body: { accepted: true } }));
    upstream.forms.set('GET /transactions', () => ({
      status: 503,
      body: { statusCode: 503, errorCode: 'unavailable', message: 'down', detail: '', tracer: 't' },
    }));
    const res = await pay();
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      statusCode: 202,
      errorCode: 'answer_incomplete',
      message: expect.stringContaining('do not repeat'),
    });
    expect(written('POST', '/orders/ordr_pay1/pay')).toBe(1);
  });
});

describe('the other money writes answered without what the legacy answer needs', () => {
  it('a refund (L7) answered {} is completed by reading the transaction: the refund id is the one new in it', async () => {
    let refunded = false;
    upstream.forms.set('GET /transactions/tran_r1', () => ({
      status: 200,
      body: referenceDetail('tran_r1', 'ordr_r1', refunded ? { refundIds: ['rfnd_new'] } : {}),
    }));
    upstream.forms.set('PATCH /transactions/tran_r1', () => ((refunded = true), { status: 200, body: {} }));
    const res = await secret.post('/refunds', {
      transactionId: 'tran_r1',
      refundAmount: { amount: 500, currency: 'AUD' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ refundId: 'rfnd_new' });
    expect(written('PATCH', '/transactions/tran_r1')).toBe(1);
  });

  it('a capture (L9) and a cancel (L10) answered with the status alone are completed by reading the transaction', async () => {
    upstream.forms.set('PATCH /transactions/tran_c1', () => ({
      status: 200,
      body: { transactionId: 'tran_c1', status: 'paid' },
    }));
    upstream.forms.set('GET /transactions/tran_c1', () => ({
      status: 200,
      body: referenceDetail('tran_c1', 'ordr_c1'),
    }));
    const captured = await secret.post('/transactions/tran_c1/authorisation:capture', {});
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect(captured.body).toMatchObject({
      _id: 'tran_c1',
      merchantOrderId: 'ordr_c1',
      amount: 2500,
      status: 'paid',
      fee: 74,
      refunds: [],
      transactionPayType: { payCardId: expect.stringMatching(/^card_/) },
    });
    const cancelled = await secret.delete('/transactions/tran_c1/authorisation');
    expect(cancelled.status).toBe(200);
    expect(written('PATCH', '/transactions/tran_c1')).toBe(2);
  });

  it('a transfer (L26) sends surchargeFee and levy, and an answer without transfers is completed by a read', async () => {
    const detail = referenceDetail('tran_t1', 'ordr_t1', { merchantId: 'mcht_alpha' });
    upstream.forms.set('GET /transactions/tran_t1', () => ({
      status: 200,
      body: {
        ...detail,
        transfers: [
          {
            transferId: 'trf_1',
            amount: 1000,
            destinationMerchantId: 'mcht_beta',
            status: 'completed',
            createdAt: at,
            levy: 100,
          },
        ],
      },
    }));
    upstream.forms.set('PATCH /transactions/tran_t1', () => ({ status: 200, body: { ok: true } }));
    const res = await platform.post('/transactions/tran_t1/transfers', {
      fromMerchant: 'mcht_alpha',
      toMerchant: 'mcht_beta',
      transferAmount: { amount: 1000, currency: 'AUD' },
      surcharge: true,
      levy: 100,
    });
    expect(upstream.bodies.get('PATCH /transactions/tran_t1')).toEqual({
      TransferFunds: { destinationMerchantId: 'mcht_beta', transferAmount: 1000, surchargeFee: true, levy: 100 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      transactionId: 'tran_t1',
      totalTransferred: 1000,
      totalLevied: 100,
      transfers: [{ transferredToMerchantId: 'mcht_beta', transferred: 1000, levy: 100 }],
    });
    expect(written('PATCH', '/transactions/tran_t1')).toBe(1);
  });

  it('a cancelled order (L12) answered with nothing readable is completed by reading the order', async () => {
    upstream.forms.set('DELETE /orders/ordr_x1', () => ({ status: 200, body: { cancelled: true } }));
    upstream.forms.set('GET /orders/ordr_x1', () => ({
      status: 200,
      body: {
        OnlineOrder: {
          order: {
            orderId: 'ordr_x1',
            merchantId: 'mcht_solo',
            referenceOrderId: 'ref-x',
            amount: { minorCurrencyUnits: 900, currency: 'AUD' },
            status: 'cancelled',
            orderType: 'online',
            createdAt: at,
            updatedAt: at,
            somethingNew: 1,
          },
        },
      },
    }));
    const res = await secret.delete('/orders/ordr_x1');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      merchantOrderId: 'ordr_x1',
      status: 'cancelled',
      amountPaid: 0,
      paymentTypeAmounts: null,
      request3DSOnPayment: null,
    });
  });
});

describe('lists: no filter trusted, every page read', () => {
  /** A service that ignores orderId (the reference lists no such filter) and pages as asked. */
  const allTransactions = Array.from({ length: 1203 }, (_, i) =>
    referenceDetail(`tran_${i}`, i % 400 === 7 ? 'ordr_mine' : `ordr_${i}`, {
      createdAt: `2026-05-01T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`,
    }),
  );
  const paged = (url: string) => {
    const query = new URL(url, 'http://x').searchParams;
    const limit = Number(query.get('limit') ?? 20);
    const page = Number(query.get('page') ?? 1);
    return { status: 200, body: allTransactions.slice((page - 1) * limit, page * limit) };
  };

  it("L17 keeps only the order's own transactions, from every page (limit 500, page 1..3)", async () => {
    upstream.forms.set('GET /transactions', paged);
    const res = await secret.get('/transactions?merchantOrderId=ordr_mine');
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.transactions.map((t: { _id: string }) => t._id)).toEqual(
      ['tran_7', 'tran_407', 'tran_807', 'tran_1207'].filter((id) => Number(id.slice(5)) < 1203),
    );
    expect(upstream.calls.filter((c) => c.startsWith('GET /transactions?'))).toEqual(
      [1, 2, 3].map((p) => `GET /transactions?orderId=ordr_mine&limit=500&page=${p}`),
    );
  });

  it("L6 given an order id answers that order's most recent transaction, not another order's", async () => {
    upstream.forms.set('GET /transactions', paged);
    const res = await secret.get('/transactions/ordr_mine');
    expect(res.status).toBe(200);
    expect(res.body._id).toBe('tran_807');
    expect(res.body.merchantOrderId).toBe('ordr_mine');
  });

  it('a service that ignores page (the same page again) is read once, not forever', async () => {
    upstream.forms.set('GET /transactions', () => ({ status: 200, body: allTransactions.slice(0, 500) }));
    const res = await secret.get('/transactions?merchantOrderId=ordr_mine');
    expect(res.status).toBe(200);
    expect(res.body.transactions.map((t: { _id: string }) => t._id)).toEqual(['tran_7', 'tran_407']);
    expect(upstream.calls.filter((c) => c.startsWith('GET /transactions?'))).toHaveLength(2);
  });
});

describe('calls the current API refuses to a merchant key (Query Customers, Get Payment Source)', () => {
  const soloMerchant = () => ({
    status: 200,
    body: [
      {
        ServiceProviderMerchant: {
          merchantId: 'mcht_solo',
          marketplaceId: null,
          businessProfile: { businessName: 'Solo' },
        },
      },
    ],
  });
  const customers = () => ({
    status: 200,
    body: [
      {
        customerId: 'cust_alice',
        referenceCustomerId: null,
        emailAddress: 'alice@example.com',
        phoneNumber: null,
        givenName: 'Alice',
        familyName: null,
      },
    ],
  });

  it("L14 is made with the operator's key and Merchant-Id of the caller's own merchant, asked with the caller's key", async () => {
    upstream.forms.set('GET /merchants', soloMerchant);
    upstream.forms.set('GET /customers', customers);
    const res = await secret.get('/merchants/mcht_solo/customers?email=alice@example.com');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.customers).toEqual([
      expect.objectContaining({ customerId: 'cust_alice', email: 'alice@example.com' }),
    ]);
    expect(upstream.calls.filter((c) => c.startsWith('GET /merchants')).length).toBeLessThanOrEqual(1);
  });

  it("a merchant the caller merely names is refused (403) and nothing is read with the operator's key", async () => {
    upstream.forms.set('GET /merchants', soloMerchant);
    upstream.forms.set('GET /customers', customers);
    const res = await secret.get('/merchants/mcht_other/customers?email=alice@example.com');
    expect([res.status, res.body.errorCode]).toEqual([403, 'forbidden']);
    expect(upstream.calls.filter((c) => c.startsWith('GET /customers'))).toEqual([]);
  });

  it('with no serviceKey configured: a legacy 401 naming the setting, nothing sent', async () => {
    const bare = await startGateway({ upstreams: { sandbox: { current: upstream.url } }, routes: { '*': 'current' } });
    try {
      upstream.forms.set('GET /merchants', soloMerchant);
      upstream.forms.set('GET /customers', customers);
      const res = await client(bare.url, { 'Limepay-SecretKey': KEYS.soloSk }).get(
        '/merchants/mcht_solo/customers?email=alice@example.com',
      );
      expect([res.status, res.body.errorCode]).toEqual([401, 'unauthenticated']);
      expect(res.body.detail).toMatch(/^serviceKey: GET \/customers takes no merchant key/);
      expect(upstream.calls.filter((c) => c.startsWith('GET /customers'))).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
