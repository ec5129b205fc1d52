/**
 * Property: legacy bodies survive legacy -> current -> legacy without losing any field that has a
 * current counterpart; metadata (nested, with legacy-looking keys) comes back unchanged.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderRequest, upsertCustomerRequest } from '../../src/contract/current-requests.js';
import { createTranslator } from '../../src/translate/index.js';
import { parityClients } from '../helpers/parity.js';
import { KEYS, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

const translator = createTranslator();
const SK = { 'limepay-secretkey': KEYS.soloSk };

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const key = fc.oneof(
  fc.constantFrom(
    'email',
    'firstName',
    'lastName',
    'phoneno',
    'phoneNo',
    'internalOrderId',
    'customerEmail',
    'platformId',
    'metadata',
    'amount',
  ),
  fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !FORBIDDEN_KEYS.has(k)),
);
/** JSON values with legacy-looking keys at any depth; no -0 (JSON turns it into 0). */
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 20 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const metadata = fc.dictionary(key, json, { maxKeys: 6 });

const text = (max: number) => fc.string({ unit: 'grapheme', maxLength: max });
/** An optional legacy string: "" means absent (legacy-api.md section 0), so a value that must survive is not empty. */
const optText = (max: number) => fc.string({ unit: 'grapheme', minLength: 1, maxLength: max });
const email = fc
  .tuple(fc.stringMatching(/^[a-z0-9]{1,10}$/), fc.stringMatching(/^[a-z]{1,10}$/))
  .map(([l, d]) => `${l}@${d}.example`);
const phone = fc.stringMatching(/^\+61[0-9]{9}$/);
const currency = fc.constantFrom('AUD', 'NZD', 'USD');
const amount = fc.integer({ min: 1, max: 1_000_000_000 });
const addressArb = fc.record(
  {
    line1: optText(40),
    line2: optText(40),
    city: optText(20),
    state: optText(10),
    postalCode: fc.stringMatching(/^[0-9]{4}$/),
    country: fc.constantFrom('AU', 'NZ'),
  },
  { requiredKeys: [] },
);

export const legacyOrderBody = fc.record(
  {
    internalOrderId: fc.string({ minLength: 1, maxLength: 40 }),
    paymentAmount: fc.record({ amount, currency }),
    description: text(100),
    customerEmail: email,
    phoneNo: phone,
    items: fc.array(
      fc.record(
        {
          description: text(30),
          quantity: fc.integer({ min: 1, max: 99 }),
          amount: fc.integer({ min: 0, max: 1_000_000 }),
          currency,
          sku: optText(10),
          imageUrl: fc.webUrl(),
        },
        { requiredKeys: ['description', 'quantity', 'amount', 'currency'] },
      ),
      { maxLength: 4 },
    ),
    discount: fc.record({ amount: fc.integer({ min: 0, max: 10_000 }) }),
    shipping: fc.record(
      { amount: fc.integer({ min: 0, max: 10_000 }), address: addressArb, name: optText(30) },
      { requiredKeys: [] },
    ),
    billing: fc.record({ address: addressArb, name: optText(30), email, phone }, { requiredKeys: [] }),
    metadata,
  },
  { requiredKeys: ['internalOrderId', 'paymentAmount', 'description', 'billing'] },
);

const orderShape = translator.routes.mappings
  .find((m) => m.mapping.route === 'L1')!
  .requestShapes.get('CreateOnlineOrder')!;

describe('legacy -> current -> legacy', () => {
  it('keeps every field of a create-order body, metadata byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(legacyOrderBody, async (body) => {
        const current = await translator.toCurrent({ method: 'POST', path: '/orders', headers: SK, body });
        const inner = (current.body as { CreateOnlineOrder: Record<string, unknown> }).CreateOnlineOrder;
        expect(createOrderRequest.safeParse(current.body).error).toBeUndefined();
        expect(inner.metadata).toEqual(body.metadata);
        expect(orderShape.backward(inner)).toEqual(body);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps consumer-customer fields through the vocabulary both ways', async () => {
    const shape = translator.routes.mappings
      .find((m) => m.mapping.route === 'L13')!
      .requestShapes.get('UpsertConsumerCustomer')!;
    const consumer = fc.record(
      {
        internalCustomerId: optText(20),
        email,
        phoneno: phone,
        firstName: optText(20),
        middleName: optText(20),
        lastName: optText(20),
        address: addressArb,
      },
      { requiredKeys: ['email'] },
    );
    await fc.assert(
      fc.asyncProperty(consumer, async (body) => {
        const current = await translator.toCurrent({ method: 'POST', path: '/customers/consumer', headers: SK, body });
        const inner = (current.body as { UpsertConsumerCustomer: Record<string, unknown> }).UpsertConsumerCustomer;
        expect(upsertCustomerRequest.safeParse(current.body).error).toBeUndefined();
        expect(
          Object.keys(inner).some((k) =>
            ['email', 'phoneno', 'firstName', 'lastName', 'internalCustomerId'].includes(k),
          ),
        ).toBe(false);
        // the current consumer upsert has no address (reference): dropped and reported, everything else kept
        const { address, ...kept } = body;
        expect(shape.backward(inner)).toEqual(kept);
        expect(current.context.droppedFields).toEqual(address === undefined ? [] : ['address']);
      }),
      { numRuns: 300 },
    );
  });
});

describe('legacy -> current API -> legacy answer, over HTTP', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('creates orders whose legacy answer repeats every field sent', async () => {
    const { translated } = parityClients(sb);
    await fc.assert(
      fc.asyncProperty(legacyOrderBody, async (body) => {
        const res = await translated({
          method: 'POST',
          path: '/orders',
          headers: { 'Limepay-SecretKey': KEYS.soloSk },
          body,
        });
        expect(res.status).toBe(200);
        const order = res.body as Record<string, unknown>;
        const { paymentAmount, ...rest } = body;
        expect(order).toMatchObject({ ...rest, amount: paymentAmount.amount, currency: paymentAmount.currency });
        expect(order.metadata ?? undefined).toEqual(body.metadata);
      }),
      { numRuns: 60 },
    );
  });
});
