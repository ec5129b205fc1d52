/**
 * Shadow mode proved the way a team would: an independent legacy upstream written in the test (from
 * legacy-api.md, not the sandbox's legacy face) over one store with the sandbox's current face,
 * client-shaped traffic on every route the deployed clients use and the platform's L2, L5 and L8 (the
 * .NET SDK's captures, cancels, deletes, renames, invoices and reads by order; the plugins' saved card
 * and sign-in; then their payment flow: create, read, pay, pay authorise-only, a 3DS challenge, read
 * the transaction, refund twice), and translation bugs planted one at a time. A
 * faithful run reads every exercised route ready with no mismatch; each planted bug turns exactly
 * its route to mismatch, the report naming the path and both values.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { ORDER_REQUEST } from '../../mappings/orders.js';
import { loadConfig } from '../../src/config.js';
import { createGateway } from '../../src/gateway/server.js';
import type { RouteReport, ShadowReport } from '../../src/shadow/ledger.js';
import { LegacyAnswer, readAnswer, type Mapping } from '../../src/translate/define.js';
import { createTranslator } from '../../src/translate/index.js';
import { closed, mapped, moved, type Obj } from '../../src/translate/shape.js';
import { transactionDetail } from '../../src/contract/current-responses.js';
import { l6OrderWithoutTransactionAs400 } from '../helpers/broken-mapping.js';
import { client } from '../helpers/http.js';
import { startLegacyUpstream, type Quirk } from '../helpers/legacy-upstream.js';
import { logStream } from '../helpers/logs.js';
import {
  CARDS,
  currentOrder,
  KEYS,
  legacyOrder,
  paidCardTransaction,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.js';

const TOKEN = 'operator-token-deviations-01';
/** Every route the deployed clients use (legacy-api.md section 0), and the platform's create, pay and refund. */
const ROUTES = [
  'L1',
  'L2',
  'L3',
  'L4',
  'L5',
  'L6',
  'L7',
  'L8',
  'L9',
  'L10',
  'L12',
  'L13',
  'L18',
  'L19',
  'L28',
  'L29',
  'L30',
  'L31',
];

let sb: TestSandbox;
let legacy: Awaited<ReturnType<typeof startLegacyUpstream>>;
beforeAll(async () => {
  sb = await startSandbox();
  legacy = await startLegacyUpstream(sb.currentUrl);
});
afterAll(async () => {
  await legacy.close();
  await sb.close();
});

/** The mappings with one of them changed by `plant`. */
function planted(route: string, plant: (m: Mapping) => Mapping): Mapping[] {
  let found = false;
  const out = ALL_MAPPINGS.map((m) => (m.route === route ? ((found = true), Object.freeze(plant(m))) : m));
  if (!found) throw new Error(`no mapping ${route} to plant in`);
  return out;
}

/** A mapping whose answer map is wrapped: `change` edits the legacy answer the original gives. */
const answerChanged = (m: Mapping, change: (answer: unknown) => unknown): Mapping => {
  const original = m.response as { reads: readonly never[]; map: (a: never, b: never, c: never) => unknown };
  return {
    ...m,
    response: { reads: original.reads, map: (a: never, b: never, c: never) => change(original.map(a, b, c)) },
  };
};
const bodyOf = (answer: unknown) => (answer instanceof LegacyAnswer ? answer.body : answer) as Obj;
const requestShape = (m: Mapping, shape: Obj): Mapping => ({ ...m, request: { ...m.request, shape: shape as never } });
/** A pay answer (a 200, not a 3DS challenge's 403) without its transactionId. */
const withoutTransactionId = (m: Mapping): Mapping =>
  answerChanged(m, (a) => {
    if (a instanceof LegacyAnswer) return a;
    const { transactionId: _gone, ...rest } = bodyOf(a);
    return rest;
  });
/** A transaction answer (L6, L9, L10) whose `_id` is the order's. */
const orderIdAsId = (m: Mapping): Mapping =>
  answerChanged(m, (a) => ({ ...bodyOf(a), _id: bodyOf(a).merchantOrderId }));

/** Client-shaped payment traffic through the gateway: what the plugins do, on three orders. */
async function traffic(url: string): Promise<void> {
  const api = client(url, { 'Limepay-SecretKey': KEYS.soloSk, 'user-agent': 'WordPress/6.1.9; https://shop.example' });
  const token = async (card: string) =>
    (await sb.current(KEYS.soloPk).post('/sandbox/card-tokens', { cardNumber: card })).body.paymentTokenId as string;
  // the other calls first: a route's verdict reads its last readyAfter comparisons, the payment flow's among them
  await clientTraffic(url, token);
  await authoriseThen3DS(url, token);
  await platformPayments(url);
  for (const [i, name] of ['Ada', 'Bo'].entries()) {
    const customer = await api.post('/customers/plugin', {
      emailAddress: `${name.toLowerCase()}@shop.example`,
      givenName: name,
      familyName: 'Shopper',
      phoneNumber: `+6140000001${i}`,
      internalCustomerId: 100 + i,
    });
    expect(customer.status, customer.text).toBe(200);
  }
  const orders: string[] = [];
  for (const [i, email] of ['a@shop.example', 'b@shop.example', 'c@shop.example'].entries()) {
    const created = await api.post('/orders', legacyOrder({ internalOrderId: `woo-${i + 1}`, customerEmail: email }));
    expect(created.status, created.text).toBe(200);
    orders.push(created.body.merchantOrderId);
  }
  for (const order of orders) expect((await api.get(`/orders/${order}`)).status).toBe(200);
  // the WooCommerce plugin's first call: request3DS chosen by amount, false under its threshold
  const paid = await api.post(`/orders/${orders[0]}/pay`, { paymentToken: await token(CARDS.ok), request3DS: false });
  expect(paid.status, paid.text).toBe(200);
  const authorised = await api.post(`/orders/${orders[1]}/pay`, {
    paymentToken: await token(CARDS.ok),
    authoriseOnly: true,
    request3DS: false,
  });
  expect(authorised.status, authorised.text).toBe(200);
  const challenged = await api.post(`/orders/${orders[2]}/pay`, { paymentToken: await token(CARDS.threeDS) });
  expect(challenged.status, challenged.text).toBe(403);
  for (const tx of [paid.body.transactionId, authorised.body.transactionId])
    expect((await api.get(`/transactions/${tx}`)).status).toBe(200);
  // the same payment refunded twice in a row: the second refund's check reads a transaction with both
  for (const amount of [1_000, 2_500]) {
    const refunded = await api.post('/refunds', {
      transactionId: paid.body.transactionId,
      refundAmount: { amount, currency: 'AUD' },
    });
    expect(refunded.status, refunded.text).toBe(200);
  }
  await customers(url);
}

/** Authorised only, then completed through 3DS without repeating authoriseOnly (the first call's holds: legacy-api.md L4). */
async function authoriseThen3DS(url: string, token: (card: string) => Promise<string>): Promise<void> {
  const api = client(url, { 'Limepay-SecretKey': KEYS.soloSk, 'user-agent': 'LimepayApi.Net/1.0' });
  for (let i = 0; i < 2; i++) {
    const order = (await api.post('/orders', legacyOrder({ internalOrderId: `net-3ds-${i}` }))).body
      .merchantOrderId as string;
    const paymentToken = await token(CARDS.threeDS);
    // as the .NET SDK pays: with a return page, offSession and a statement descriptor
    const challenge = await api.post(`/orders/${order}/pay`, {
      paymentToken,
      authoriseOnly: true,
      returnURL: 'https://shop.example/return',
      offSession: false,
      cardStatement: { name: 'SHOP', city: 'Sydney' },
    });
    expect(challenge.status, challenge.text).toBe(403);
    const completed = await api.post(`/orders/${order}/pay`, {
      paymentToken,
      paymentActionRequired: challenge.body.paymentActionRequired,
    });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body.transactionStatus).toBe('not_captured');
  }
}

/** The customer upserts L13 and L18, new customers each run, in the reference's names and the older ones. */
async function customers(url: string): Promise<void> {
  const api = client(url, { 'Limepay-SecretKey': KEYS.soloSk });
  const run = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const consumers = [
    {
      internalCustomerId: `c1-${run}`,
      emailAddress: `c1-${run}@shop.example`,
      phoneNumber: '+61400000021',
      givenName: 'Ada',
      middleName: 'Quinn',
      familyName: 'Shopper',
      address: { line1: '1 King St', country: 'AU' },
      isVerified: true,
    },
    {
      internalCustomerId: `c2-${run}`,
      email: `c2-${run}@shop.example`,
      phoneno: '+61400000022',
      firstName: 'Bo',
      middleName: 'Rue',
      lastName: 'Shopper',
      address: { line1: '2 King St', country: 'AU' },
      isVerified: false,
    },
  ];
  for (const body of consumers) {
    const created = await api.post('/customers/consumer', body);
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatch(/^cust_/);
  }
  const organisations = [
    { internalCustomerId: `o1-${run}`, businessName: 'Older Org', abn: '51824753556', email: `o1-${run}@shop.example` },
    {
      internalCustomerId: `o2-${run}`,
      organisationName: 'Reference Org',
      taxId: '53004085616',
      emailAddress: `o2-${run}@shop.example`,
      organisationKyced: true,
      organisationCreditChecked: false,
    },
  ];
  for (const body of organisations) {
    const created = await api.post('/customers/organisation', body);
    expect(created.status, created.text).toBe(200);
  }
}

/** The rest of what the deployed clients send (legacy-api.md section 0): the .NET SDK's and the plugins' other calls. */
async function clientTraffic(url: string, token: (card: string) => Promise<string>): Promise<void> {
  const api = client(url, { 'Limepay-SecretKey': KEYS.soloSk, 'user-agent': 'LimepayApi.Net/1.0' });
  const ok = async (answer: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const got = await answer;
    expect(got.status, got.text).toBe(status);
    return got.body;
  };
  const order = async (ref: string) =>
    (await ok(api.post('/orders', legacyOrder({ internalOrderId: ref })))).merchantOrderId as string;
  // the .NET SDK captures with a money object, an integer, and {} (the whole authorisation); then cancels two others
  for (const captureAmount of [{ amount: 6_000, currency: 'AUD' }, 4_000, undefined]) {
    const o = await order('net-capture');
    const authorised = await ok(
      api.post(`/orders/${o}/pay`, { paymentToken: await token(CARDS.ok), authoriseOnly: true }),
    );
    await ok(
      api.post(
        `/transactions/${authorised.transactionId}/authorisation:capture`,
        captureAmount === undefined ? {} : { captureAmount },
      ),
    );
    // and reads the transaction by its order (the .NET SDK's tests)
    await ok(api.get(`/transactions/${o}`));
  }
  for (let i = 0; i < 2; i++) {
    const authorised = await ok(
      api.post(`/orders/${await order('net-cancel')}/pay`, {
        paymentToken: await token(CARDS.ok),
        authoriseOnly: true,
      }),
    );
    await ok(api.delete(`/transactions/${authorised.transactionId}/authorisation`));
    await ok(api.delete(`/orders/${await order('net-delete')}`));
    await ok(api.patch(`/orders/${await order('net-patch')}`, { internalOrderId: `net-patched-${i}` }));
    await ok(
      api.post('/orders/invoices', {
        orderRequest: legacyOrder({ internalOrderId: `net-invoice-${i}` }),
        sendSms: false,
        SendEmail: i === 0,
      }),
    );
    // the plugins' saved card and sign-in
    const source = (
      await sb
        .current(KEYS.soloSk, { 'Customer-Id': 'cust_alice' })
        .post('/sandbox/card-sources', { cardNumber: CARDS.ok })
    ).body.paymentSourceId;
    await ok(
      api.post('/payments/saved-card', {
        cardPaymentSourceId: source,
        paymentAmount: { amount: 2_500, currency: 'AUD' },
        customerId: 'cust_alice',
      }),
      201,
    );
    await ok(api.post('/authn/tenants/accounts:signinCustomerWithCustomerId', { customerId: 'cust_alice' }));
  }
}

/** A platform creating, paying and refunding a sub-merchant's orders (L2, L5, L8). */
async function platformPayments(url: string): Promise<void> {
  const platform = client(url, { 'Limepay-Token': KEYS.marketplace });
  const orders = '/platforms/mktp_demo/merchants/mcht_alpha/orders';
  for (let i = 0; i < 4; i++) {
    const created = await platform.post(orders, legacyOrder({ internalOrderId: `platform-${i}` }));
    expect(created.status, created.text).toBe(200);
    const paymentToken = (await sb.current(KEYS.alphaPk).post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body
      .paymentTokenId;
    // the last with the WooCommerce plugin's request3DS (a PayByCard), the others with the token alone
    const paid = await platform.post(
      `${orders}/${created.body.merchantOrderId}/pay`,
      i === 3 ? { paymentToken, request3DS: false } : { paymentToken },
    );
    expect(paid.status, paid.text).toBe(200);
    // the last payments are not refunded: their checks read a transaction no later write touched
    if (i >= 2) continue;
    const refunded = await platform.post('/platforms/mktp_demo/refunds', {
      transactionId: paid.body.transactionId,
      refundAmount: { amount: 3_000, currency: 'AUD' },
    });
    expect(refunded.status, refunded.text).toBe(200);
  }
}

/**
 * One shadow run: a gateway with these mappings in front of `legacyUrl` (sampling everything), the
 * traffic `drive` sends through it, then the report's routes once every comparison is recorded.
 */
async function shadowRun(
  legacyUrl: string,
  readyAfter: number,
  drive: (url: string, settle: () => Promise<void>) => Promise<void>,
  mappings: readonly Mapping[] = ALL_MAPPINGS,
): Promise<Map<string, RouteReport>> {
  const config = loadConfig({
    file: {
      logLevel: 'warn',
      listen: { host: '127.0.0.1', port: 0 },
      operatorToken: TOKEN,
      upstreams: { sandbox: { current: sb.currentUrl, legacy: legacyUrl } },
      routes: { '*': 'shadow' },
      shadow: { sample: { '*': 1 }, readyAfter, learnSample: 0 },
    },
  });
  // L28's state read is Query Customers, which takes no merchant key: made with the operator's key
  const gateway = await createGateway({
    config,
    translator: createTranslator({ mappings, serviceKey: KEYS.operator }),
    logStream: logStream('shadow-deviations'),
  });
  const url = await gateway.listen();
  try {
    await drive(url, () => gateway.shadow.idle());
    await gateway.shadow.idle();
    const report = (await client(url, { authorization: `Bearer ${TOKEN}` }).get('/_paybridge/report'))
      .body as ShadowReport;
    return new Map(report.routes.map((r) => [r.route, r]));
  } finally {
    await gateway.close();
  }
}

/** The payment traffic over the independent legacy upstream, with these mappings. */
const run = (mappings?: readonly Mapping[]) => shadowRun(legacy.url, 2, traffic, mappings);

const verdicts = (routes: Map<string, RouteReport>) => Object.fromEntries(ROUTES.map((r) => [r, routes.get(r)?.state]));

interface Fault {
  name: string;
  route: string;
  mappings: () => Mapping[];
  /** The path the report must name, and the two values (legacy's, the translation's). */
  path: string;
  /** What the route's verdict must also say (what could not be compared). */
  verdict?: RegExp;
  primary?: unknown;
  candidate?: unknown;
}

const FAULTS: Fault[] = [
  {
    name: "L4's answer without transactionId",
    route: 'L4',
    path: 'transactionId',
    candidate: undefined,
    mappings: () => planted('L4', withoutTransactionId),
  },
  {
    name: 'L4 answering 201',
    route: 'L4',
    path: '$status',
    primary: 200,
    candidate: 201,
    mappings: () =>
      planted('L4', (m) => answerChanged(m, (a) => (a instanceof LegacyAnswer ? a : new LegacyAnswer(201, a)))),
  },
  {
    name: 'the 3DS challenge as 402 instead of 403',
    route: 'L4',
    path: '$status',
    primary: 403,
    candidate: 402,
    mappings: () =>
      planted('L4', (m) =>
        answerChanged(m, (a) => (a instanceof LegacyAnswer && a.status === 403 ? new LegacyAnswer(402, a.body) : a)),
      ),
  },
  // the route's first example: the .NET SDK's authorise-only pays come first in the traffic
  {
    name: "L4's transactionStatus renamed",
    route: 'L4',
    path: 'transactionStatus',
    primary: 'not_captured',
    mappings: () =>
      planted('L4', (m) =>
        answerChanged(m, (a) => {
          if (a instanceof LegacyAnswer) return a;
          const { transactionStatus, ...rest } = bodyOf(a);
          return { ...rest, status: transactionStatus };
        }),
      ),
  },
  {
    name: "L1's amount x100",
    route: 'L1',
    path: '$effect.amount.minorCurrencyUnits',
    mappings: () =>
      planted('L1', (m) =>
        requestShape(m, {
          ...ORDER_REQUEST,
          paymentAmount: mapped(
            (v) => ({
              minorCurrencyUnits: (v as { amount: number }).amount * 100,
              currency: (v as { currency: string }).currency,
            }),
            'amount',
          ),
        }),
      ),
  },
  {
    name: "L7's refund x100",
    route: 'L7',
    path: '$effect.refundAmount',
    mappings: () =>
      planted('L7', (m) =>
        requestShape(m, { refundAmount: mapped((v) => (v as { amount: number }).amount * 100, 'refundAmount') }),
      ),
  },
  {
    name: 'authoriseOnly dropped (captured at once)',
    route: 'L4',
    path: '$effect.authoriseOnly',
    primary: 'not_captured',
    candidate: 'paid',
    mappings: () =>
      planted('L4', (m) => {
        const shape = m.request!.shape as Record<string, Obj>;
        return requestShape(m, { ...shape, PayByCard: { ...shape.PayByCard, authoriseOnly: moved() } });
      }),
  },
  {
    name: 'customerEmail dropped',
    route: 'L1',
    path: '$effect.customerEmailAddress',
    primary: 's***@example.com' /* masked in records; the .NET SDK's orders come first */,
    mappings: () => planted('L1', (m) => requestShape(m, { ...ORDER_REQUEST, customerEmail: moved() })),
  },
  {
    name: "L7's refundId taken from the first refund (the client refunds one payment twice in a row)",
    route: 'L7',
    path: 'refundId',
    mappings: () =>
      planted('L7', (m) => ({
        ...m,
        response: readAnswer([transactionDetail], (detail) => ({ refundId: detail.purchaseDetails.refundIds[0] })),
      })),
  },
  {
    name: "L6 answering the order's id as the transaction's",
    route: 'L6',
    path: '_id',
    mappings: () => planted('L6', orderIdAsId),
  },
  {
    name: "L3's internalOrderId from the order id",
    route: 'L3',
    path: 'internalOrderId',
    mappings: () =>
      planted('L3', (m) => answerChanged(m, (a) => ({ ...bodyOf(a), internalOrderId: bodyOf(a).merchantOrderId }))),
  },
  {
    name: "L1's phone number dropped",
    route: 'L1',
    path: '$effect.customerPhoneNumber',
    mappings: () => planted('L1', (m) => requestShape(m, { ...ORDER_REQUEST, phoneNo: moved() })),
  },
  {
    name: "L4's payment type named card",
    route: 'L4',
    path: 'type',
    primary: 'paycard',
    candidate: 'card',
    mappings: () =>
      planted('L4', (m) => answerChanged(m, (a) => (a instanceof LegacyAnswer ? a : { ...bodyOf(a), type: 'card' }))),
  },
  {
    name: "L28's givenName dropped",
    route: 'L28',
    path: '$asked.givenName',
    primary: 'Ada',
    mappings: () => planted('L28', (m) => requestShape(m, { ...(m.request?.shape as Obj), givenName: moved() })),
  },
  {
    name: "L7's refund answered 201",
    route: 'L7',
    path: '$status',
    primary: 200,
    candidate: 201,
    mappings: () => planted('L7', (m) => answerChanged(m, (a) => new LegacyAnswer(201, a))),
  },
  // the routes the deployed clients use besides the payment flow, and the platform's
  {
    name: "L2's amount x100",
    route: 'L2',
    path: '$effect.amount.minorCurrencyUnits',
    mappings: () =>
      planted('L2', (m) =>
        requestShape(m, {
          ...ORDER_REQUEST,
          paymentAmount: mapped(
            (v) => ({
              minorCurrencyUnits: (v as { amount: number }).amount * 100,
              currency: (v as { currency: string }).currency,
            }),
            'amount',
          ),
        }),
      ),
  },
  {
    name: "L5's answer without transactionId",
    route: 'L5',
    path: 'transactionId',
    candidate: undefined,
    mappings: () => planted('L5', withoutTransactionId),
  },
  {
    name: "L8's refund x100",
    route: 'L8',
    path: '$effect.refundAmount',
    mappings: () =>
      planted('L8', (m) =>
        requestShape(m, { refundAmount: mapped((v) => (v as { amount: number }).amount * 100, 'refundAmount') }),
      ),
  },
  {
    name: "L9 answering the order's id as the captured transaction's",
    route: 'L9',
    path: '_id',
    mappings: () => planted('L9', orderIdAsId),
  },
  {
    name: "L10 answering the order's id as the cancelled transaction's",
    route: 'L10',
    path: '_id',
    mappings: () => planted('L10', orderIdAsId),
  },
  {
    name: "L12's cancelled order answered as created",
    route: 'L12',
    path: 'status',
    primary: 'cancelled',
    candidate: 'created',
    mappings: () => planted('L12', (m) => answerChanged(m, (a) => ({ ...bodyOf(a), status: 'created' }))),
  },
  {
    name: "L19's payCardId the token's id",
    route: 'L19',
    path: 'payCardId',
    mappings: () =>
      planted('L19', (m) =>
        answerChanged(m, (a) => new LegacyAnswer(201, { ...bodyOf(a), payCardId: bodyOf(a).paymentTokenId })),
      ),
  },
  {
    name: "L29's token under another name",
    route: 'L29',
    path: 'customToken',
    candidate: undefined,
    mappings: () => planted('L29', (m) => ({ ...m, response: { shape: closed({ token: 'customToken' }) } })),
  },
  {
    name: "L30's internalOrderId not sent",
    route: 'L30',
    path: '$effect.referenceOrderId',
    mappings: () =>
      planted('L30', (m) =>
        requestShape(m, { internalOrderId: mapped(() => 'not-what-was-asked', 'referenceOrderId') }),
      ),
  },
  {
    name: "L31's magicLink dropped",
    route: 'L31',
    path: 'magicLink',
    candidate: undefined,
    mappings: () =>
      planted('L31', (m) =>
        answerChanged(m, (a) => {
          const { magicLink: _gone, ...rest } = bodyOf(a);
          return rest;
        }),
      ),
  },
  // issue 55: what a hand-kept list of compared fields missed, and a timestamp's format
  {
    name: 'L9 capturing the whole authorisation instead of the amount asked',
    route: 'L9',
    path: '$effect.amount',
    mappings: () => planted('L9', (m) => requestShape(m, { captureAmount: moved() })),
  },
  {
    name: "L4's request3DS inverted",
    route: 'L4',
    path: '$effect.request3DS',
    primary: false,
    candidate: true,
    mappings: () =>
      planted('L4', (m) => {
        const shape = m.request!.shape as Record<string, Obj>;
        return requestShape(m, {
          ...shape,
          PayByCard: { ...shape.PayByCard, request3DS: mapped((v) => !v, 'request3DS') },
        });
      }),
  },
  {
    name: "L13's middleName dropped",
    route: 'L13',
    path: '$asked.middleName',
    primary: 'Quinn',
    candidate: undefined,
    verdict: /not comparable: .*middleName/,
    mappings: () => planted('L13', (m) => requestShape(m, { ...(m.request!.shape as Obj), middleName: moved() })),
  },
  {
    name: "L18's abn dropped",
    route: 'L18',
    path: '$asked.abn',
    primary: '51824753556',
    candidate: undefined,
    mappings: () =>
      planted('L18', (m) => requestShape(m, { ...(m.request!.shape as Obj), abn: moved(), taxId: moved() })),
  },
  {
    name: "L6's createdAt answered as a date only",
    route: 'L6',
    path: 'createdAt',
    mappings: () =>
      planted('L6', (m) =>
        answerChanged(m, (a) => ({ ...bodyOf(a), createdAt: String(bodyOf(a).createdAt).slice(0, 10) })),
      ),
  },
  {
    name: "L31's SendEmail dropped",
    route: 'L31',
    path: '$asked.sendEmail',
    primary: true,
    candidate: undefined,
    verdict: /not comparable: .*sendEmail \(the current API shows no e-mail sent\)/,
    mappings: () => planted('L31', (m) => requestShape(m, { ...(m.request!.shape as Obj), SendEmail: moved() })),
  },
];

describe('shadow mode against an independent legacy upstream', () => {
  it('a faithful translation reads every exercised route ready, nothing mismatched', async () => {
    const routes = await run();
    expect(verdicts(routes)).toEqual(Object.fromEntries(ROUTES.map((r) => [r, 'ready'])));
    for (const r of ROUTES) expect(routes.get(r)!.topDiffs, r).toEqual([]);
    // the writes were compared as writes (state, effect and answer), not only read back; one whose state
    // read came after the client's next write of the resource is counted as raced, by order, never judged
    for (const r of ['L1', 'L2', 'L4', 'L5', 'L7', 'L8', 'L9', 'L10', 'L12', 'L19', 'L28', 'L29', 'L30', 'L31']) {
      expect(routes.get(r)!.methods, r).toEqual({ write: expect.any(Number) });
      expect(
        Object.keys(routes.get(r)!.skipped).filter((reason) => !reason.startsWith('raced: a later write')),
        r,
      ).toEqual([]);
    }
    // the refunds, each judged on its own refund, are never raced, though the client refunds one payment twice in a row
    for (const r of ['L7', 'L8']) expect(routes.get(r)!.skipped, r).toEqual({});
    // what no current state shows is named in the route's verdict, not passed silently
    expect(routes.get('L31')!.verdict).toMatch(
      /^ready: .*; not comparable: .*sendEmail \(the current API shows no e-mail sent\)/,
    );
    expect(routes.get('L13')!.verdict).toMatch(/not comparable: .*middleName \(the state read does not show it\)/);
    expect(routes.get('L4')!.verdict).toMatch(/not comparable: .*paymentTokenId/);
    // the 3DS completions that did not repeat authoriseOnly were judged by their first call's (not_captured), not passed
    expect(Object.keys(routes.get('L4')!.notComparable).join()).not.toMatch(/authoriseOnly/);
    // every route the deployed clients use was served by the independent upstream, L6 given an order id too
    expect(legacy.served.some((r) => /^GET \/transactions\/ordr_/.test(r))).toBe(true);
  });

  it.each(FAULTS.map((f) => [f.name, f] as const))(
    'catches %s on exactly its route, naming the path and both values',
    async (_name, fault) => {
      const routes = await run(fault.mappings());
      const expected = Object.fromEntries(ROUTES.map((r) => [r, r === fault.route ? 'mismatch' : 'ready']));
      expect(verdicts(routes)).toEqual(expected);
      const diff = routes.get(fault.route)!.topDiffs.find((d) => d.path === fault.path);
      expect(diff, JSON.stringify(routes.get(fault.route)!.topDiffs)).toBeDefined();
      if ('primary' in fault) expect(diff!.example.primary).toEqual(fault.primary);
      if ('candidate' in fault) expect(diff!.example.candidate).toEqual(fault.candidate);
      expect(diff!.example.primary).not.toEqual(diff!.example.candidate);
      if (fault.verdict) expect(routes.get(fault.route)!.verdict).toMatch(fault.verdict);
    },
  );
});

describe('concurrent writes of one resource', () => {
  /** One payment, then 30 refunds of it sent at once, as a busy back office might. */
  async function concurrentRefunds(url: string): Promise<void> {
    const api = client(url, { 'Limepay-SecretKey': KEYS.soloSk });
    const order = (await api.post('/orders', legacyOrder({ internalOrderId: 'concurrent-refunds' }))).body
      .merchantOrderId as string;
    const paymentToken = (await sb.current(KEYS.soloPk).post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body
      .paymentTokenId;
    const paid = await api.post(`/orders/${order}/pay`, { paymentToken });
    expect(paid.status, paid.text).toBe(200);
    const refunds = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api.post('/refunds', {
          transactionId: paid.body.transactionId,
          refundAmount: { amount: 100 + i, currency: 'AUD' },
        }),
      ),
    );
    for (const r of refunds) expect(r.status, r.text).toBe(200);
    expect(new Set(refunds.map((r) => r.body.refundId)).size).toBe(30);
  }

  it('30 concurrent refunds of one payment are all judged (none starved as raced), none mismatched', async () => {
    const l7 = (await shadowRun(legacy.url, 30, concurrentRefunds)).get('L7')!;
    expect(l7.methods).toEqual({ write: 30 });
    expect(l7.skipped).toEqual({});
    expect(l7.topDiffs).toEqual([]);
    expect(l7.state).toBe('ready');
  });

  it("catches L7's refundId taken from the first refund among concurrent refunds", async () => {
    const mappings = planted('L7', (m) => ({
      ...m,
      response: readAnswer([transactionDetail], (detail) => ({ refundId: detail.purchaseDetails.refundIds[0] })),
    }));
    const l7 = (await shadowRun(legacy.url, 30, concurrentRefunds, mappings)).get('L7')!;
    expect(l7.methods).toEqual({ write: 30 });
    expect(l7.state).toBe('mismatch');
    // every refund but the first, judged and found wrong: none of them taken for a race
    expect(l7.topDiffs.find((d) => d.path === 'refundId')?.count).toBe(29);
  });
});

describe('a legacy service that departs from the contract', () => {
  /** One shadow run over an independent legacy upstream with `quirk`, driving `drive`; the report's route `route`. */
  async function quirkRun(quirk: Quirk, route: string, drive: (url: string) => Promise<void>): Promise<RouteReport> {
    const odd = await startLegacyUpstream(sb.currentUrl, quirk);
    try {
      return (await shadowRun(odd.url, 1, drive)).get(route)!;
    } finally {
      await odd.close();
    }
  }

  it('refusing as malformed a body the translator accepts reads as a mismatch at $translation', async () => {
    const report = await quirkRun(
      (method, path) =>
        method === 'POST' && path === '/orders'
          ? [
              400,
              {
                statusCode: 400,
                errorCode: 'invalid_request',
                message: 'The request is invalid',
                detail: 'description: too long',
                tracer: 'legacy-upstream',
              },
            ]
          : undefined,
      'L1',
      async (url) =>
        expect((await client(url, { 'Limepay-SecretKey': KEYS.soloSk }).post('/orders', legacyOrder())).status).toBe(
          400,
        ),
    );
    expect(report.state).toBe('mismatch');
    expect(report.topDiffs[0]).toMatchObject({
      path: '$translation',
      example: { primary: 'refused: invalid_request: description: too long', candidate: 'accepted' },
    });
  });

  it('answering a card removal (L16) 200 while the card stays reads as a mismatch at $effect.removed', async () => {
    const source = (
      await sb
        .current(KEYS.soloSk, { 'Customer-Id': 'cust_alice' })
        .post('/sandbox/card-sources', { cardNumber: CARDS.ok })
    ).body.paymentSourceId as string;
    const removal = `/merchants/mcht_solo/payments/sources/card/cust_alice/${source}`;
    const report = await quirkRun(
      // the removed card as legacy-api.md section 4 shows it, but nothing removed
      (method, path) =>
        method === 'DELETE' && path === removal
          ? [
              200,
              {
                cardPaymentSourceId: source,
                customerId: 'cust_alice',
                customerDelegateUserId: null,
                brand: 'visa',
                funding: 'credit',
                last4: '4242',
                cardBin: '424242',
                expMonth: 12,
                expYear: 2030,
                country: 'AU',
                isDeleted: true,
                createdAt: null,
                updatedAt: null,
              },
            ]
          : undefined,
      'L16',
      async (url) => expect((await client(url, { 'Limepay-SecretKey': KEYS.soloSk }).delete(removal)).status).toBe(200),
    );
    expect(report.state).toBe('mismatch');
    expect(report.topDiffs.find((d) => d.path === '$effect.removed')?.example).toMatchObject({
      primary: 'removed by the legacy write',
      candidate: expect.stringMatching(/: 200$/),
    });
    // the card is still there: nothing was removed by the comparison either (Get Payment Source takes no merchant key)
    expect(
      (
        await sb
          .current(KEYS.operator, { 'Customer-Id': 'cust_alice', 'Merchant-Id': 'mcht_solo' })
          .get(`/sources/${source}`)
      ).status,
    ).toBe(200);
  });
});

describe("the other writes' checks, against the sandbox's legacy face", () => {
  /** One shadow run of the platform, customer and saved-card writes through the sandbox's legacy face; the report's routes. */
  const platformRun = (mappings?: readonly Mapping[]) => shadowRun(sb.legacyUrl, 1, platformTraffic, mappings);

  /** An operator's platform writes, each compared before the next write of the same merchant (`settle`). */
  async function platformTraffic(url: string, settle: () => Promise<void>): Promise<void> {
    const platform = client(url, { 'Limepay-Token': KEYS.marketplace });
    const secret = client(url, { 'Limepay-SecretKey': KEYS.soloSk });
    const ok = async (answer: Promise<{ status: number; text: string; body: any }>) => {
      const got = await answer;
      expect(got.status, got.text).toBeLessThan(300);
      await settle();
      return got.body;
    };
    const merchant = (
      await ok(
        platform.post('/marketplaces/onboarding', {
          slug: `dev-${Date.now()}`,
          businessName: 'Dev',
          contactEmail: 'dev@example.com',
          taxCountry: 'AU',
        }),
      )
    ).merchantId;
    await ok(
      platform.put(`/platforms/mktp_demo/merchants/${merchant}/businessProfile`, {
        timeZone: 'Australia/Sydney',
        businessName: 'Dev Pty',
        businessType: 'company',
        companyType: 'Private',
        website: 'https://dev.example',
        supportSite: 'https://dev.example/help',
        industry: 'Retail',
      }),
    );
    const account = {
      accountName: 'Ops',
      accountNumber: '123456',
      country: 'AU',
      currency: 'AUD',
      routingNumber: '032000',
    };
    const first = (await ok(platform.post(`/marketplaces/merchants/${merchant}/accounts`, account))).accountId;
    await ok(platform.post(`/marketplaces/merchants/${merchant}/accounts`, { ...account, accountNumber: '654321' }));
    await ok(platform.put(`/platforms/mktp_demo/merchants/${merchant}/bankAccounts/${first}/primary`));
    const tx = await paidCardTransaction(sb.current(KEYS.alphaSk));
    await ok(
      platform.post(`/transactions/${tx}/transfers`, {
        fromMerchant: 'mcht_alpha',
        toMerchant: 'mcht_beta',
        transferAmount: { amount: 1_000, currency: 'AUD' },
        surcharge: false,
      }),
    );
    await ok(
      platform.post(`/transactions/${tx}/transfers:reverse`, {
        fromMerchant: 'mcht_beta',
        toMerchant: 'mcht_alpha',
        reverseAmount: { amount: 1_000, currency: 'AUD' },
        reverseLevy: false,
      }),
    );
    const person = (
      await sb.current(KEYS.marketplace, { 'Merchant-Id': 'mcht_beta' }).post('/beneficialowners', {
        CreateBeneficialOwner: { givenName: 'P', familyName: 'Q', dateOfBirth: '1980-01-01', ownershipPercentage: 1 },
      })
    ).body.beneficialOwnerId;
    await ok(
      platform.post(`/marketplaces/merchants/mcht_beta/person/${person}`, {
        title: 'Dr',
        roles: ['Director'],
        firstName: 'Pat',
        lastName: 'Quinn',
        dob: '1981-02-03',
        address: { line1: '1 King St', country: 'AU' },
        email: 'pat@beta.example',
        phone: '+61400000004',
        verificationDocs: [],
      }),
    );
    await ok(secret.post('/authn/tenants/accounts:signinCustomerWithCustomerId', { customerId: 'cust_alice' }));
    const source = (
      await sb
        .current(KEYS.soloSk)
        .post('/sandbox/card-sources', { cardNumber: CARDS.ok }, { 'Customer-Id': 'cust_alice' })
    ).body.paymentSourceId;
    await ok(
      secret.post('/payments/saved-card', {
        cardPaymentSourceId: source,
        paymentAmount: { amount: 2_500, currency: 'AUD' },
        customerId: 'cust_alice',
      }),
    );
    await ok(secret.delete(`/merchants/mcht_solo/payments/sources/card/cust_alice/${source}`));
    await ok(secret.post('/orders/invoices', { orderRequest: legacyOrder(), sendEmail: false }));
    await ok(secret.post('/customers/consumer', { email: 'dev@shop.example', firstName: 'De', lastName: 'V' }));
    await ok(secret.post('/customers/organisation', { businessName: 'Dev Org', email: 'org@shop.example' }));
  }
  const WRITES = ['L13', 'L16', 'L18', 'L19', 'L21', 'L23', 'L24', 'L25', 'L26', 'L27', 'L29', 'L31', 'L32'];

  it('compares every one as a write, all ready, nothing mismatched', async () => {
    const routes = await platformRun();
    for (const r of WRITES) {
      expect(routes.get(r)?.topDiffs, r).toEqual([]);
      expect(routes.get(r)?.state, `${r} ${JSON.stringify(routes.get(r)?.skipped)}`).toBe('ready');
      expect(Object.keys(routes.get(r)!.methods), r).toEqual(['write']);
    }
  });

  it("catches a bank account not made primary (L24) and a person's date of birth dropped (L32), each on its route", async () => {
    const noPrimary = await platformRun(planted('L24', (m) => ({ ...m, request: { ...m.request, add: {} } })));
    expect(noPrimary.get('L24')!.state).toBe('mismatch');
    expect(noPrimary.get('L24')!.topDiffs.map((d) => d.path)).toContain('$effect.setAsPrimary');
    expect(WRITES.filter((r) => r !== 'L24' && noPrimary.get(r)!.state !== 'ready')).toEqual([]);
    const noBirth = await platformRun(
      planted('L32', (m) => requestShape(m, { ...(m.request!.shape as Obj), dob: moved() })),
    );
    expect(noBirth.get('L32')!.state).toBe('mismatch');
    expect(noBirth.get('L32')!.topDiffs.map((d) => d.path)).toContain('$validation');
  });
});

describe('a difference on a rare path kind', () => {
  it("catches L6 answering 400 where legacy answers 404 (an order without a transaction), read once before the route's last matching comparisons", async () => {
    // the bug: the read of an order's transaction answers an order that has none as a bad request
    const mappings = planted('L6', l6OrderWithoutTransactionAs400);
    const unpaid = (await sb.current(KEYS.soloSk).post('/orders', currentOrder())).body.OnlineOrder.order
      .orderId as string;
    const routes = await shadowRun(
      legacy.url,
      2,
      async (url) => {
        // once, first: a shop looking up the payment of an order its shopper abandoned
        expect((await client(url, { 'Limepay-SecretKey': KEYS.soloSk }).get(`/transactions/${unpaid}`)).status).toBe(
          404,
        );
        await traffic(url);
      },
      mappings,
    );
    expect(verdicts(routes)).toEqual(Object.fromEntries(ROUTES.map((r) => [r, r === 'L6' ? 'mismatch' : 'ready'])));
    const l6 = routes.get('L6')!;
    expect(l6.topDiffs.find((d) => d.path === '$status')?.example).toMatchObject({ primary: 404, candidate: 400 });
    // the route's other comparisons, its last ones among them, all matched: the rare kind alone holds it
    expect(l6.window.kinds['2xx']).toMatchObject({ unexplained: 0, compared: expect.any(Number) });
    expect(l6.window.kinds['2xx']!.compared).toBeGreaterThanOrEqual(2);
    expect(l6.window.kinds['4xx not_found']).toMatchObject({ compared: 1, unexplained: 1 });
    expect(l6.window.kinds['4xx not_found']!.paths).toContain('$status');
  });
});

/**
 * The mutation run over mappings/ (docs/testing.md, "Planted translation bugs over mappings/"): each
 * mapping of a route the payment traffic exercises is copied with one bug planted, systematically:
 * every top-level legacy request field dropped from the translation (per action, where the mapping
 * chooses one), every field of the legacy answer dropped; the payment traffic is run over the
 * independent legacy upstream for each, and the bug counts as caught when its route reads mismatch.
 * Minutes long: run with PAYBRIDGE_MUTATION_RUN=1 (never in `npm test`); the table goes to
 * .test-logs/planted-mappings.json.
 */
describe.runIf(process.env.PAYBRIDGE_MUTATION_RUN === '1')(
  'planted translation bugs over mappings/ (the mutation run)',
  () => {
    interface Mutant {
      route: string;
      kind: 'request field dropped' | 'answer field dropped';
      field: string;
      mappings: Mapping[];
    }
    const keysOf = (schema: unknown): string[] => {
      const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
      return shape ? Object.keys(shape) : [];
    };
    /** The legacy answer without `field`, whatever its status (a 3DS 403, a 201). */
    const withoutField = (m: Mapping, field: string): Mapping =>
      answerChanged(m, (a) => {
        const body = bodyOf(a);
        if (typeof body !== 'object' || body === null || !(field in body)) return a;
        const { [field]: _gone, ...rest } = body;
        return a instanceof LegacyAnswer ? new LegacyAnswer(a.status, rest) : rest;
      });

    function mutants(): Mutant[] {
      const out: Mutant[] = [];
      for (const m of ALL_MAPPINGS) {
        if (!ROUTES.includes(m.route)) continue;
        const moves = Object.keys(m.request?.move ?? {});
        const bodyKeys = keysOf(m.body).filter((k) => !moves.includes(k));
        const shape = (m.request?.shape ?? {}) as Record<string, unknown>;
        const perAction = typeof m.request?.wrap === 'function';
        for (const action of perAction ? Object.keys(shape) : [undefined]) {
          const spec = (action ? shape[action] : shape) as Obj;
          for (const key of bodyKeys) {
            // a field the action already leaves out (moved(): no current key) is no bug to plant
            const bound = (spec[key] as { bind?: (k: string) => { currentKeys?: unknown[] } } | undefined)?.bind?.(key);
            if (bound?.currentKeys?.length === 0) continue;
            const changed = { ...spec, [key]: moved() };
            out.push({
              route: m.route,
              kind: 'request field dropped',
              field: action ? `${action}.${key}` : key,
              mappings: planted(m.route, (x) => requestShape(x, action ? { ...shape, [action]: changed } : changed)),
            });
          }
        }
        if (!('map' in m.response)) continue;
        const answer = m.answers[200] ?? m.answers[201];
        for (const key of keysOf(answer))
          out.push({
            route: m.route,
            kind: 'answer field dropped',
            field: key,
            mappings: planted(m.route, (x) => withoutField(x, key)),
          });
      }
      return out;
    }

    it('reports how many planted bugs the deviation suite catches, and which survive', async () => {
      const all = mutants();
      const results: {
        route: string;
        kind: string;
        field: string;
        state: string | undefined;
        unexplained: number;
        others: string[];
        top: string[];
        notComparable: string[];
      }[] = [];
      for (const mutant of all) {
        const routes = await run(mutant.mappings);
        const report = routes.get(mutant.route);
        results.push({
          route: mutant.route,
          kind: mutant.kind,
          field: mutant.field,
          state: report?.state,
          unexplained: report?.unexplained ?? 0,
          others: ROUTES.filter((r) => r !== mutant.route && routes.get(r)?.state !== 'ready'),
          top: (report?.topDiffs ?? []).map((d) => d.path),
          notComparable: Object.keys(report?.notComparable ?? {}),
        });
      }
      const caught = results.filter((r) => r.state === 'mismatch');
      mkdirSync('.test-logs', { recursive: true });
      writeFileSync(
        '.test-logs/planted-mappings.json',
        JSON.stringify({ planted: results.length, caught: caught.length, results }, null, 1),
      );
      console.log(`planted ${results.length}, caught ${caught.length}`);
      for (const r of results.filter((x) => x.state !== 'mismatch'))
        console.log(
          `survived: ${r.route} ${r.kind} ${r.field} (${r.state}; ${r.unexplained} unexplained outside the verdict's last comparisons; ${r.top.join(', ')}; not comparable: ${r.notComparable.join(' | ')})`,
        );
      for (const r of results.filter((x) => x.others.length > 0))
        console.log(`also turned: ${r.route} ${r.kind} ${r.field}: ${r.others.join(', ')}`);
      expect(results.length).toBeGreaterThan(0);
    }, 3_600_000);
  },
);
