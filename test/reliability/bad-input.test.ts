/**
 * Bad input, generated (fast-check): every request below is wrong by construction, and every answer
 * must be a legacy-shaped 4xx naming the problem. No 5xx, no crash, no prototype pollution, memory
 * bounded. 10,000 requests in CI; HEAVY_TESTS=1 sends 100,000.
 */
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/errors.js';
import { startGateway } from '../helpers/gateway.js';
import { writeSummary } from '../helpers/logs.js';
import { CARDS, KEYS, legacyOrder, paidCardTransaction, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { TEST_CVC } from '../helpers/secrets.js';

const HEAVY = process.env.HEAVY_TESTS === '1';
const COUNT = HEAVY ? 100_000 : 10_000;

v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc') as () => void;

interface Case {
  kind: string;
  method: string;
  path: string;
  /** Flat name/value list, so a header can repeat. */
  headers: string[];
  body?: string;
  /** Sent over a raw socket (values undici refuses to send, such as CR/LF in a header). */
  raw?: string;
  status: number[];
  detail: RegExp;
}

let sb: TestSandbox;
let gw: Awaited<ReturnType<typeof startGateway>>;
let orderId: string;
let transactionId: string;
const SK = ['limepay-secretkey', KEYS.soloSk, 'content-type', 'application/json'];
const post = (kind: string, path: string, body: string, status: number[], detail: RegExp, headers = SK): Case => ({
  kind,
  method: 'POST',
  path,
  headers,
  body,
  status,
  detail,
});

// --- generators -----------------------------------------------------------------------------

const orderBody = fc
  .record({
    internalOrderId: fc.string({ minLength: 1, maxLength: 20 }),
    description: fc.string({ maxLength: 40 }),
    metadata: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  })
  .map((o) =>
    JSON.stringify(
      legacyOrder({
        ...o,
        items: [{ description: 'x', quantity: 1, amount: 100, currency: 'AUD', sku: 'S' }],
        cardCvc: TEST_CVC,
        cardNumber: CARDS.ok,
      }),
    ),
  );

const truncated = orderBody.chain((text) =>
  fc
    .integer({ min: 1, max: text.length - 1 })
    .map((n) => post('truncated JSON', '/orders', text.slice(0, n), [400], /^body: (malformed JSON|nested deeper)/)),
);
const trailing = fc
  .tuple(
    orderBody,
    fc.string({ minLength: 1, maxLength: 5 }).filter((s) => s.trim() !== ''),
  )
  .map(([text, junk]) => post('malformed JSON', '/orders', text + junk, [400], /^body: malformed JSON/));

const notString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
  fc.array(fc.integer(), { maxLength: 2 }),
);
const notInt = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
);
const notObject = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
);
const notArray = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}));
// what deployed clients send is not bad input (legacy-api.md section 0): null and "" in optional fields
// are absent, a shop's own numeric id is a reference, a quantity may be written "1.0000"
const notBlank = (v: unknown) => v !== null && v !== '';
const notReference = notString.filter((v) => !Number.isSafeInteger(v));
const notCount = notInt.filter((v) => !(typeof v === 'string' && /^\s*\d{1,9}(\.\d{1,8})?\s*$/.test(v)));
const FIELDS: [string, (o: any, v: unknown) => void, fc.Arbitrary<unknown>][] = [
  ['internalOrderId', (o, v) => (o.internalOrderId = v), notReference],
  ['description', (o, v) => (o.description = v), notString],
  ['customerEmail', (o, v) => (o.customerEmail = v), notString.filter(notBlank)],
  ['paymentAmount', (o, v) => (o.paymentAmount = v), notObject],
  ['paymentAmount.amount', (o, v) => (o.paymentAmount.amount = v), notInt],
  ['paymentAmount.currency', (o, v) => (o.paymentAmount.currency = v), notString],
  ['billing', (o, v) => (o.billing = v), notObject],
  ['items', (o, v) => (o.items = v), notArray.filter(notBlank)],
  ['items[0].quantity', (o, v) => (o.items[0].quantity = v), notCount],
  ['discount.amount', (o, v) => (o.discount.amount = v), notInt],
];
const wrongType = fc.integer({ min: 0, max: FIELDS.length - 1 }).chain((i) => {
  const [field, set, values] = FIELDS[i]!;
  return values.map((v) => {
    const body = legacyOrder();
    set(body, v);
    return post(
      'wrong type',
      '/orders',
      JSON.stringify(body),
      [400],
      new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')}: `),
    );
  });
});

const badAmount = fc.oneof(
  fc.integer({ min: -1_000_000_000, max: -1 }),
  fc.double({ min: 0.01, max: 1e6, noInteger: true, noNaN: true }),
  fc.constantFrom(1e12, 1e21, 100_000_000_001, 2 ** 53 + 2, -0.5),
);
const amounts = fc.tuple(fc.integer({ min: 0, max: 3 }), badAmount).map(([where, amount]): Case => {
  if (where === 0)
    return post(
      'bad amount',
      '/orders',
      JSON.stringify(legacyOrder({ paymentAmount: { amount, currency: 'AUD' } })),
      [400],
      /^paymentAmount\.amount: /,
    );
  if (where === 1)
    return post(
      'bad amount',
      '/orders',
      JSON.stringify(legacyOrder({ items: [{ description: 'x', quantity: 1, amount, currency: 'AUD' }] })),
      [400],
      /^items\[0\]\.amount: /,
    );
  if (where === 2)
    return post(
      'bad amount',
      '/refunds',
      JSON.stringify({ transactionId, refundAmount: { amount, currency: 'AUD' } }),
      [400],
      /^refundAmount\.amount: /,
    );
  return post(
    'bad amount',
    `/transactions/${transactionId}/authorisation:capture`,
    JSON.stringify({ captureAmount: { amount, currency: 'AUD' } }),
    [400],
    /^captureAmount\.amount: /,
  );
});

const oddChars = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)),
    fc.constantFrom('ü', '𝛢', '\u202e', ' ', '%', '/', '.', '\\', '"', '\u0000'),
  ),
  minLength: 1,
  maxLength: 4,
});
const unicodeIds = fc.tuple(oddChars, fc.boolean()).map(([chars, inPath]): Case =>
  inPath
    ? {
        kind: 'unicode and control characters in ids',
        method: 'GET',
        path: `/orders/ordr_${encodeURIComponent(chars)}`,
        headers: SK,
        status: [400],
        detail: /^merchantOrderId: /,
      }
    : post(
        'unicode and control characters in ids',
        '/refunds',
        JSON.stringify({ transactionId: `tran_${chars}`, refundAmount: { amount: 1, currency: 'AUD' } }),
        [400],
        /^transactionId: /,
      ),
);

const deep = fc.integer({ min: 65, max: 20_000 }).map((depth) => {
  const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return post(
    'deep nesting',
    '/orders',
    JSON.stringify(legacyOrder({ metadata: { x: 1 } })).replace('{"x":1}', nested),
    [400],
    /^body: nested deeper than 64 levels/,
  );
});

const protoKeys = fc
  .tuple(fc.constantFrom('__proto__', 'constructor'), fc.constantFrom('top', 'billing', 'metadata', 'items'))
  .map(([key, where]) => {
    const poison = key === '__proto__' ? '{"polluted":"yes","isAdmin":true}' : '{"prototype":{"polluted":"yes"}}';
    const body = legacyOrder({ billing: { name: 'B' }, metadata: { m: 1 } });
    let text = JSON.stringify(body);
    const inject = `"${key}":${poison},`;
    if (where === 'top') text = `{${inject}${text.slice(1)}`;
    else if (where === 'billing') text = text.replace('"billing":{', `"billing":{${inject}`);
    else if (where === 'metadata') text = text.replace('"metadata":{', `"metadata":{${inject}`);
    else text = text.replace('"items":[{', `"items":[{${inject}`);
    return post(
      '__proto__ / constructor keys',
      '/orders',
      text,
      [400],
      /^body: keys __proto__ and constructor\.prototype are not allowed/,
    );
  });

const oversized = fc
  .integer({ min: 1_050_000, max: 1_300_000 })
  .map((size) =>
    post(
      'oversized body',
      '/orders',
      JSON.stringify(legacyOrder({ description: 'x'.repeat(size) })),
      [413],
      /^body: exceeds/,
    ),
  );

const credentials = fc
  .constantFrom<string[]>(
    ['limepay-secretkey', KEYS.soloSk, 'limepay-secretkey', KEYS.betaSk],
    ['limepay-secretkey', KEYS.soloSk, 'limepay-publickey', KEYS.soloPk],
    ['limepay-secretkey', KEYS.soloSk, 'authorization', `Bearer ${KEYS.soloSk}`],
    ['limepay-token', KEYS.marketplace, 'limepay-merchanttoken', KEYS.soloMerchantToken],
    ['limepay-secretkey', KEYS.soloSk, 'merchant-id', 'mcht_other'],
    ['limepay-secretkey', KEYS.soloSk, 'customer-id', 'cust_olga'],
    ['limepay-token', KEYS.marketplace, 'marketplace-id', 'mktp_demo'],
    ['limepay-secretkey', KEYS.soloPk],
    [],
  )
  .chain((headers) =>
    fc.constantFrom('/orders/ORDER', '/transactions/TX').map((path): Case => ({
      kind: 'duplicate or conflicting credential headers',
      method: 'GET',
      path,
      headers,
      status: [400, 401],
      detail:
        /^(Limepay-[A-Za-z]+(, Limepay-[A-Za-z]+)*|Marketplace-Id|Merchant-Id|Customer-Id): |^one Limepay-\* credential header is required$/,
    })),
  );

// (the tail has no colon: CR LF followed by "name: value" would be a well-formed second header)
const crlf = fc
  .tuple(fc.constantFrom('\r', '\n', '\r\n', '\u0000', '\u007f'), fc.stringMatching(/^[A-Za-z0-9 _.-]{0,6}$/))
  .map(([bad, tail]): Case => ({
    kind: 'CR/LF in header values',
    method: 'GET',
    path: '/orders/ORDER',
    headers: [],
    raw: `GET /orders/${'ORDER'} HTTP/1.1\r\nHost: x\r\nLimepay-SecretKey: ${KEYS.soloSk}${bad}${tail.replace(/[\r\n]/g, '')}x\r\nConnection: close\r\n\r\n`,
    status: [400],
    detail: /^(headers: |Limepay-SecretKey: )/,
  }));

const traversal = fc
  .constantFrom(
    '/orders/ordr_a%2F..%2F..%2Ftransactions',
    '/orders/..%2F..%2Fsandbox%2Fstats',
    '/orders/%2e%2e%2fx',
    '/transactions/tran_1%2F..',
    '/orders/../transactions/TX',
    '/orders/ORDER/../../refunds',
    '/transactions/..%5C..%5Cx',
    '/orders/ordr_%00',
  )
  .map((path): Case => ({
    kind: 'encoded slashes and .. in path ids',
    method: 'GET',
    path,
    headers: SK,
    // literal dot segments go over a raw socket: a URL-parsing client would resolve them before sending
    ...(/\/\.\.(\/|$)/.test(path)
      ? { raw: `GET ${path} HTTP/1.1\r\nHost: x\r\nLimepay-SecretKey: ${KEYS.soloSk}\r\nConnection: close\r\n\r\n` }
      : {}),
    status: [400, 404],
    detail: /^(merchantOrderId|transactionId): |is not a legacy route$|^path: dot segments/,
  }));

const unknownRoutes = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
    fc.array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { minLength: 1, maxLength: 5 }),
  )
  .filter(
    ([, segs]) =>
      ![
        'orders',
        'transactions',
        'refunds',
        'customers',
        'merchants',
        'platforms',
        'payments',
        'marketplaces',
      ].includes(segs[0]!),
  )
  .map(([method, segs]): Case => ({
    kind: 'unknown routes',
    method,
    path: `/${segs.join('/')}`,
    headers: SK,
    status: [404],
    detail: /^[A-Z]+ \/\S* is not a legacy route$/,
  }));

const cases = fc.oneof(
  { arbitrary: truncated, weight: 10 },
  { arbitrary: trailing, weight: 5 },
  { arbitrary: wrongType, weight: 15 },
  { arbitrary: amounts, weight: 15 },
  { arbitrary: unicodeIds, weight: 10 },
  { arbitrary: deep, weight: 5 },
  { arbitrary: protoKeys, weight: 8 },
  { arbitrary: oversized, weight: 1 },
  { arbitrary: credentials, weight: 10 },
  { arbitrary: crlf, weight: 5 },
  { arbitrary: traversal, weight: 6 },
  { arbitrary: unknownRoutes, weight: 10 },
);

// --- sending ---------------------------------------------------------------------------------

function rawExchange(port: number, text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.setEncoding('utf8').on('data', (d: string) => (out += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0);
      resolve({ status, body: out.slice(out.indexOf('\r\n\r\n') + 4) });
    });
  });
}

async function send(c: Case): Promise<{ status: number; body: string }> {
  const fill = (s: string) => s.replace('ORDER', orderId).replace('TX', transactionId);
  if (c.raw) return rawExchange(Number(new URL(gw.url).port), fill(c.raw));
  const res = await request(`${gw.url}${fill(c.path)}`, {
    method: c.method as 'GET',
    headers: c.headers.map(fill),
    ...(c.body !== undefined ? { body: c.body } : {}),
  });
  return { status: res.statusCode, body: await res.body.text() };
}

beforeAll(async () => {
  sb = await startSandbox();
  gw = await startGateway({ upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } } });
  transactionId = await paidCardTransaction(sb.current(KEYS.soloSk));
  orderId = (await sb.current(KEYS.soloSk).get(`/transactions/${transactionId}`)).body.purchaseDetails.orderId;
});
afterAll(async () => {
  await gw.close();
  await sb.close();
});

describe(`bad input: ${COUNT} generated requests`, () => {
  it(
    'answers every one with a legacy-shaped 4xx naming the problem; no 5xx, crash, pollution or unbounded memory',
    async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (err: unknown) => unhandled.push(err);
      process.on('unhandledRejection', onUnhandled);
      const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();
      const samples = fc.sample(cases, { numRuns: COUNT, seed: Number(process.env.FUZZ_SEED ?? 20261121) });
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const failures: string[] = [];
      const kinds = new Map<string, number>();
      const statuses = new Map<number, number>();
      let next = 0;
      const worker = async () => {
        while (next < samples.length) {
          const c = samples[next++]!;
          kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
          const { status, body } = await send(c);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          let parsed: Record<string, unknown> | undefined;
          try {
            parsed = JSON.parse(body);
          } catch {
            parsed = undefined;
          }
          const shaped =
            parsed !== undefined &&
            Object.keys(parsed).sort().join() === 'detail,errorCode,errorTypeDescription,message,statusCode,tracer' &&
            parsed.statusCode === status &&
            typeof parsed.errorCode === 'string' &&
            Object.hasOwn(ERRORS, parsed.errorCode) &&
            typeof parsed.tracer === 'string' &&
            parsed.tracer.length > 0;
          if (!c.status.includes(status) || !shaped || !c.detail.test(String(parsed?.detail)))
            failures.push(`${c.kind}: ${c.method} ${c.path.slice(0, 80)} -> ${status} ${body.slice(0, 200)}`);
        }
      };
      await Promise.all(Array.from({ length: 24 }, worker));
      gc();
      const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
      process.off('unhandledRejection', onUnhandled);

      expect(failures.slice(0, 10)).toEqual([]);
      expect([...statuses.keys()].every((s) => s >= 400 && s < 500)).toBe(true);
      expect(unhandled).toEqual([]);
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      expect(heapGrowthMb).toBeLessThan(64);
      expect((await request(`${gw.url}/healthz`)).statusCode).toBe(200);
      expect(kinds.size).toBe(12);
      const byStatus = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}x${n}`)
        .join(' ');
      writeSummary(
        '1-bad-input',
        `bad input: ${samples.length} generated requests of ${kinds.size} kinds, all legacy-shaped 4xx naming the problem (${byStatus}); 0 5xx, 0 unhandled rejections, heap +${heapGrowthMb.toFixed(1)} MB`,
      );
    },
    HEAVY ? 900_000 : 120_000,
  );
});
