/**
 * A write's effect judged from its translated request (src/shadow/effect.ts) and the order of the
 * writes the gateway forwarded (src/shadow/write-order.ts), on their own: the deviation suite runs
 * them end to end against an independent legacy upstream.
 */
import { describe, expect, it } from 'vitest';
import { judgeEffect } from '../../src/shadow/effect.js';
import { WriteOrder } from '../../src/shadow/write-order.js';
import type { WriteCheck } from '../../src/translate/define.js';

const order = {
  referenceOrderId: 'r-1',
  amount: { minorCurrencyUnits: 1000, currency: 'AUD' },
  customerEmailAddress: 'a@shop.example',
  customerPhoneNumber: null,
  description: 'd',
  shipping: { name: 'A', phoneNumber: '+61400000001' },
};
const check = (effect: WriteCheck['effect']): WriteCheck => ({
  state: () => '/orders/x',
  reads: {} as never,
  answer: () => ({ status: 200, body: undefined }),
  effect,
});
const create = check({ at: (state) => state, unset: 'absent' });
const judge = (c: WriteCheck, action: object, state: unknown, legacy: object = {}, wrapper = 'CreateOnlineOrder') =>
  judgeEffect(c, 'POST /orders', { [wrapper]: action }, undefined, state, { params: {}, body: legacy, answer: {} });

describe("a write's effect, derived from its translated request", () => {
  it('compares every field the call sets, at its own path, and finds nothing wrong in a faithful create', () => {
    const asked = {
      referenceOrderId: 'r-1',
      amount: { minorCurrencyUnits: 1000, currency: 'AUD' },
      customerEmailAddress: 'a@shop.example',
      description: 'd',
      shipping: { name: 'A', phoneNumber: '+61400000001' },
    };
    expect(judge(create, asked, order)).toEqual({ mismatches: [], notComparable: [] });
  });

  it('catches a changed amount, a dropped field a create left in the state, and one dropped inside an object', () => {
    const asked = {
      referenceOrderId: 'r-1',
      amount: { minorCurrencyUnits: 100_000, currency: 'AUD' },
      description: 'd',
      shipping: { name: 'A' },
    };
    const { mismatches } = judge(create, asked, order);
    expect(mismatches).toEqual(
      expect.arrayContaining([
        { field: 'amount.minorCurrencyUnits', asked: 100_000, found: 1000 },
        { field: 'customerEmailAddress', asked: undefined, found: 'a@shop.example' },
        { field: 'shipping.phoneNumber', asked: undefined, found: '+61400000001' },
      ]),
    );
    expect(mismatches).toHaveLength(3);
  });

  it('names a field no state shows, and holds it to what the client asked under the same name (any case)', () => {
    const invoice = check({
      at: (state) => state,
      unset: 'absent',
      fields: { sendEmail: 'the current API shows no e-mail sent' },
    });
    const sent = judge(
      invoice,
      {
        referenceOrderId: 'r-1',
        amount: order.amount,
        customerEmailAddress: 'a@shop.example',
        description: 'd',
        shipping: order.shipping,
        sendEmail: true,
      },
      order,
      { SendEmail: true },
      'CreatePayByLink',
    );
    expect(sent).toEqual({ mismatches: [], notComparable: ['sendEmail (the current API shows no e-mail sent)'] });
    const dropped = judge(
      invoice,
      {
        referenceOrderId: 'r-1',
        amount: order.amount,
        customerEmailAddress: 'a@shop.example',
        description: 'd',
        shipping: order.shipping,
      },
      order,
      { SendEmail: true },
      'CreatePayByLink',
    );
    expect(dropped.mismatches).toEqual([{ field: 'sendEmail', asked: undefined, found: true, request: true }]);
    expect(dropped.notComparable).toEqual(['sendEmail (the current API shows no e-mail sent)']);
  });

  it("leaves an update's unset fields alone, but not one the client sent (a field the translation dropped and reported is the contract's)", () => {
    const upsert = check({ at: (state) => state, unset: 'kept' });
    const customer = { emailAddress: 'a@shop.example', givenName: 'Ada', familyName: 'Shopper' };
    const call = (action: object, legacy: object, dropped: string[] = []) =>
      judgeEffect(
        upsert,
        'POST /customers',
        { UpsertConsumerCustomer: action },
        undefined,
        [customer][0],
        { params: {}, body: legacy, answer: 'cust_1' },
        dropped,
      );
    expect(call({ emailAddress: 'a@shop.example' }, { email: 'a@shop.example' }).mismatches).toEqual([]);
    expect(call({ emailAddress: 'a@shop.example' }, { email: 'a@shop.example', middleName: 'Q' }).mismatches).toEqual([
      { field: 'middleName', asked: undefined, found: 'Q', request: true },
    ]);
    expect(
      call({ emailAddress: 'a@shop.example' }, { email: 'a@shop.example', isVerified: true }, ['isVerified'])
        .mismatches,
    ).toEqual([]);
  });

  it("runs a field's rule whether or not the call sets it (no capture amount asks for the whole authorisation)", () => {
    const capture = check({
      at: (state) => state,
      fields: {
        amount: ({ asked, state }) => (state ? [asked ?? 6000, (state as { captured: number }).captured] : undefined),
      },
    });
    const run = (action: object) =>
      judgeEffect(
        capture,
        'PATCH /transactions/{transactionId}',
        { CaptureFunds: action },
        undefined,
        { captured: 4000 },
        { params: {}, body: {}, answer: {} },
      );
    expect(run({ amount: 4000 }).mismatches).toEqual([]);
    expect(run({}).mismatches).toEqual([{ field: 'amount', asked: 6000, found: 4000 }]);
  });
});

describe('the order of the writes the gateway forwarded', () => {
  it('takes a write of the same resource begun before the read ended for a race, and one wholly before or of another resource for none', async () => {
    const writes = new WriteOrder();
    const before = writes.begins('/transactions/tran_a1/authorisation:capture', undefined);
    writes.ends(before);
    const pay = writes.begins('/orders/ordr_b1/pay', '{"paymentToken":"ptkn_1","authoriseOnly":true}');
    writes.ends(pay);
    const other = writes.begins('/refunds', '{"transactionId":"tran_other"}');
    writes.ends(other);
    expect(writes.racing(pay, '/transactions/tran_a1', performance.now())).toEqual([]);
    const refund = writes.begins('/refunds', '{"transactionId":"tran_a1","refundAmount":{"amount":100}}');
    // a refund of the transaction forwarded after the pay: a race for a read ending after it began, none for one before
    expect(writes.racing(pay, '/transactions/tran_a1', performance.now())).toEqual([refund]);
    expect(writes.racing(pay, '/transactions/tran_a1', refund.begin - 1)).toEqual([]);
    const confirm = writes.begins('/orders/ordr_b1/pay', '{"paymentToken":"ptkn_1","paymentActionRequired":{}}');
    expect(writes.earlier(confirm, '/orders/ordr_b1/pay')).toEqual([{ paymentToken: 'ptkn_1', authoriseOnly: true }]);
  });
});
