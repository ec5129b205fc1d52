import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { customerCreated, transactionDetail } from '../../src/contract/current-responses.js';
import { LEGACY_ORDER, LEGACY_TRANSACTION } from '../../mappings/shapes.js';
import {
  defineMapping,
  readAnswer,
  toBody,
  toPath,
  type Mapping,
  type RequestSpec,
} from '../../src/translate/define.js';
import { LEGACY_ROUTES, ROUTE_IDS } from '../../src/translate/legacy-routes.js';
import { compileRouter } from '../../src/translate/router.js';
import { closed, computed, from, moved, type ShapeSpec } from '../../src/translate/shape.js';

/** A contract file of ../shared/spec, looked for upwards from here (a mutation run copies the project one folder deeper). */
function specFile(name: string): URL {
  for (let up = '../../../'; up.length < 40; up += '../') {
    const url = new URL(`${up}shared/spec/${name}`, import.meta.url);
    if (existsSync(url)) return url;
  }
  throw new Error(`../shared/spec/${name} not found above ${import.meta.url}`);
}

const valid = () =>
  defineMapping({
    route: 'L3',
    description: 'Read an order',
    legacy: 'GET /orders/{merchantOrderId}',
    current: 'GET /orders/{orderId}',
    params: { merchantOrderId: toPath('orderId', 'order') },
    response: { shape: {} },
    answers: { 200: z.object({}) },
  });

describe('mappings are checked when the router compiles', () => {
  it('compiles one mapping per route of the registry, each in a file of mappings/', () => {
    const router = compileRouter(ALL_MAPPINGS);
    expect(router.mappings.map((m) => m.mapping.route).sort()).toEqual(LEGACY_ROUTES.map((r) => r.id).sort());
    for (const m of router.mappings) expect(m.mapping.source).toMatch(/^mappings\/\w+\.ts$/);
  });

  it("holds the registry to the contract's route table (legacy-api.md section 3), naming what is not yet followed", () => {
    // the contract's rows: | L7 | 1 | `POST /refunds` ... (the first backticked call is the legacy one)
    const table = readFileSync(specFile('legacy-api.md'), 'utf8');
    const contract = new Map(
      [...table.matchAll(/^\| (L\d+) \| ([12]) \| `(GET|POST|PUT|PATCH|DELETE) ([^`]+)`/gm)].map((m) => [
        m[1]!,
        { tier: Number(m[2]), call: `${m[3]} ${m[4]}` },
      ]),
    );
    expect(contract.size).toBeGreaterThanOrEqual(31);
    const differing = LEGACY_ROUTES.filter((r) => {
      const row = contract.get(r.id);
      return !row || row.call.split('?')[0] !== `${r.method} ${r.path}` || row.tier !== r.tier;
    }).map((r) => r.id);
    const unmapped = [...contract.keys()].filter((id) => !ROUTE_IDS.has(id));
    expect({ differing, unmapped }).toEqual({ differing: [], unmapped: [] });
  });

  it('gives every write route a write check, so shadow mode compares its own answer and effect (issue 43)', () => {
    const writes = ALL_MAPPINGS.filter((m) => !m.legacy.startsWith('GET ') && m.readOnly !== true);
    expect(writes.length).toBeGreaterThan(20);
    expect(writes.filter((m) => !m.writeCheck).map((m) => m.route)).toEqual([]);
  });

  it('stops on a mapping without a description, naming the file and the mapping', () => {
    const broken = { ...valid(), description: ' ' };
    expect(() => compileRouter([broken])).toThrow(
      'mappings-load.test.ts: mapping L3 (GET /orders/{merchantOrderId}): a description is required',
    );
  });

  it('stops on two mappings for one legacy route', () => {
    expect(() => compileRouter([valid(), valid()])).toThrow(
      /mapping L3 .*route L3 is already mapped in .*mappings-load\.test\.ts/,
    );
  });

  it('stops on a route id or a legacy call of the wrong form, and on a route mapped twice', () => {
    expect(() => compileRouter([{ ...valid(), route: 'Route3' }])).toThrow(
      /route Route3: expected a route id such as L7/,
    );
    expect(() => compileRouter([{ ...valid(), legacy: 'FETCH /orders/{merchantOrderId}' }])).toThrow(
      /expected METHOD \/path/,
    );
    expect(() => compileRouter([valid(), { ...valid(), legacy: 'GET /orders2/{merchantOrderId}' }])).toThrow(
      /route L3 is already mapped/,
    );
  });

  it('stops on a path parameter without a target and on a current path parameter never filled', () => {
    expect(() => compileRouter([{ ...valid(), params: {} }])).toThrow(/path parameter merchantOrderId has no target/);
    expect(() => compileRouter([{ ...valid(), current: 'GET /orders/{id}', body: z.object({}) }])).toThrow(
      /current path parameter id is never filled/,
    );
  });

  it('stops on a current call the current API does not have, and on an action its operation does not take', () => {
    expect(() => compileRouter([{ ...valid(), current: 'GET /order/{orderId}' }])).toThrow(
      /mapping L3 .*GET \/order\/\{orderId\} is not an operation of the current API/,
    );
    const update = ALL_MAPPINGS.find((m) => m.route === 'L11')!;
    expect(compileRouter([update]).mappings).toHaveLength(1);
    expect(() => compileRouter([{ ...update, request: { wrap: 'CancelOrder' } }])).toThrow(
      /mapping L11 .*PATCH \/orders\/\{orderId\} takes no action CancelOrder \(it takes UpdateReferenceOrderId\)/,
    );
    // a GET takes no body, so no action at all
    expect(() => compileRouter([{ ...valid(), request: { wrap: 'CancelOrder' } }])).toThrow(
      /GET \/orders\/\{orderId\} takes no action CancelOrder$/,
    );
  });

  describe('every key a mapping writes into a current call is one the current API knows', () => {
    const mapping = (route: string) => ALL_MAPPINGS.find((m) => m.route === route)!;
    const withRequest = (m: Mapping, request: RequestSpec): Mapping => ({ ...m, request });
    const l1 = mapping('L1');
    const orderShape = l1.request!.shape as ShapeSpec;

    it('stops on a rename target with a typo, at the top level and inside a nested shape', () => {
      expect(() =>
        compileRouter([
          withRequest(l1, {
            wrap: 'CreateOnlineOrder',
            shape: { ...orderShape, customerEmail: 'customerEmailAdress' },
          }),
        ]),
      ).toThrow(
        /mappings\/orders\.ts: mapping L1 .*CreateOnlineOrder in POST \/orders has no field customerEmailAdress \(src\/contract\/current-requests\.ts\)$/,
      );
      expect(() =>
        compileRouter([
          withRequest(l1, { wrap: 'CreateOnlineOrder', shape: { ...orderShape, billing: { phone: 'phone' } } }),
        ]),
      ).toThrow(/has no field billing\.phone /);
    });

    it('stops on a legacy field the shape leaves to the vocabulary when the current action has no such field', () => {
      const withColour = { ...l1, body: (l1.body as z.ZodObject).extend({ colour: z.string().optional() }) };
      expect(() => compileRouter([withColour])).toThrow(/CreateOnlineOrder in POST \/orders has no field colour /);
      // taken out of the body by its rule, the same field is fine
      expect(
        compileRouter([
          withRequest(withColour, { wrap: 'CreateOnlineOrder', shape: { ...orderShape, colour: moved() } }),
        ]).mappings,
      ).toHaveLength(1);
    });

    it('checks each action a function picks with the fields that pick it (L4: the 3DS completion)', () => {
      const l4 = mapping('L4');
      const spec = l4.request!.shape as Record<string, ShapeSpec>;
      expect(compileRouter([l4]).mappings).toHaveLength(1);
      expect(() =>
        compileRouter([
          withRequest(l4, {
            ...l4.request!,
            shape: { ...spec, Confirm3DSComplete: { ...spec.Confirm3DSComplete, paymentToken: 'paymentToken' } },
          }),
        ]),
      ).toThrow(/Confirm3DSComplete in POST \/orders\/\{orderId\}\/pay has no field paymentToken /);
      // returnURL goes to PayByCard as returnUrl; written as sent, PayByCard has no such field
      const { returnURL: _dropped, ...payByCard } = spec.PayByCard!;
      expect(() =>
        compileRouter([withRequest(l4, { ...l4.request!, shape: { ...spec, PayByCard: payByCard } })]),
      ).toThrow(/PayByCard in .* has no field returnURL /);
    });

    it('stops on a path id put into a body field, or a query parameter, the current call does not have', () => {
      const l25 = mapping('L25');
      expect(compileRouter([l25]).mappings).toHaveLength(1);
      expect(() =>
        compileRouter([{ ...l25, params: { ...l25.params, bankAccountId: toBody('bankAccount', 'bankAccount') } }]),
      ).toThrow(/SetMerchantPrimaryBankAccount in PATCH \/merchants\/\{merchantId\} has no field bankAccount /);
      const l17 = mapping('L17');
      expect(() => compileRouter([{ ...l17, query: { ...l17.query!, shape: { merchantOrderId: 'order' } } }])).toThrow(
        /GET \/transactions has no query parameter order$/,
      );
    });
  });

  describe('every key a response shape reads is one the current answer has', () => {
    const mapping = (route: string) => ALL_MAPPINGS.find((m) => m.route === route)!;

    it('stops on a response shape reading a field the current answer does not have, nested paths and computed rules included', () => {
      const l6 = mapping('L6');
      const legacyTransaction = LEGACY_TRANSACTION;
      const withRules = (rules: ShapeSpec): Mapping => ({
        ...l6,
        response: { shape: closed({ ...legacyTransaction.spec, ...rules }) },
      });
      expect(compileRouter([withRules({})]).mappings).toHaveLength(1);
      expect(() => compileRouter([withRules({ _id: from('purchaseDetails.transactionID') })])).toThrow(
        /mapping L6 .*the answer of GET \/transactions\/\{transactionId\} has no field purchaseDetails\.transactionID \(src\/contract\/current-responses\.ts\)$/,
      );
      const refunds = computed((detail) =>
        ((detail.timelines ?? []) as { eventTyp?: string }[]).filter((t) => t.eventTyp === 'PaymentRefunded'),
      );
      expect(() => compileRouter([withRules({ refunds })])).toThrow(/has no field timelines\[0\]\.eventTyp /);
    });

    it('stops on a read schema naming a key no answer of the operation has (a tolerant reader reads only what the service answers)', () => {
      const l6 = mapping('L6');
      const misspelt = z.looseObject({ purchaseDetails: z.looseObject({ transactionID: z.string() }) });
      expect(() => compileRouter([{ ...l6, response: readAnswer([misspelt], (detail) => detail) }])).toThrow(
        /mapping L6 .*its read schema names purchaseDetails\.transactionID, which no answer of GET \/transactions\/\{transactionId\} has/,
      );
      const known = z.looseObject({ purchaseDetails: z.looseObject({ transactionId: z.string() }) });
      expect(compileRouter([{ ...l6, response: readAnswer([known], (detail) => detail) }]).mappings).toHaveLength(1);
    });

    it('probes a map function with every kind of answer its operation gives', () => {
      const l13 = mapping('L13');
      expect(compileRouter([l13]).mappings).toHaveLength(1);
      // a map typed by hand (not through readAnswer) still has its reads probed at load
      expect(() =>
        compileRouter([
          { ...l13, response: { reads: [customerCreated], map: (body: { customerID: string }) => body.customerID } },
        ]),
      ).toThrow(/mapping L13 .*the answer of POST \/customers has no field customerID /);
      // a map reading a form its operation does not answer with
      expect(() =>
        compileRouter([
          { ...l13, response: readAnswer([transactionDetail], (detail) => detail.purchaseDetails.transactionId) },
        ]),
      ).toThrow(/mapping L13 .*its map reads a form POST \/customers does not answer with/);
      // through readAnswer, a misspelt field does not even compile (npm test type-checks this file)
      // @ts-expect-error customerID is not a field of customerCreated
      readAnswer([customerCreated], (body) => body.customerID);
      // L4 reads the 3DS challenge and the card payment, each from the answer that has it
      expect(compileRouter([mapping('L4')]).mappings).toHaveLength(1);
    });

    it("reads from the object at the mapping's `at` path of the answer", () => {
      const l3 = mapping('L3');
      expect(() =>
        compileRouter([
          {
            ...l3,
            response: { at: 'OnlineOrder.order', shape: closed({ ...LEGACY_ORDER.spec, merchantOrderId: 'orderID' }) },
          },
        ]),
      ).toThrow(/the answer of GET \/orders\/\{orderId\} at OnlineOrder\.order has no field orderID /);
    });
  });
});
