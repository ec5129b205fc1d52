/** The shape language's backward walk: the keys a rule gives, in the order the shape lists them, and none it leaves out. */
import { describe, expect, it } from 'vitest';
import { LEGACY_TRANSACTION } from '../../mappings/shapes.js';
import { ORDER_ITEM } from '../../mappings/shapes.js';
import { closed, compileShape, computed, flatCurrency, flatMoney, from, money } from '../../src/translate/shape.js';

describe('backward', () => {
  it('builds the listed keys in order and leaves out a key whose rule gives undefined (not even present as undefined)', () => {
    const shape = compileShape(closed({ a: from('x.a'), b: from('x.b'), c: computed(() => undefined), d: from('y') }));
    const out = shape.backward({ x: { a: 1 }, y: null });
    expect(Object.keys(out)).toEqual(['a', 'd']);
    expect('b' in out).toBe(false);
    expect('c' in out).toBe(false);
    expect(out).toStrictEqual({ a: 1, d: null });
    // the next object starts from the full template again
    expect(Object.keys(shape.backward({ x: { a: 1, b: 2 }, y: 3 }))).toEqual(['a', 'b', 'd']);
  });

  it('gives the legacy transaction its observed key order, whatever the current answer holds', () => {
    const legacy = compileShape(LEGACY_TRANSACTION).backward({
      purchaseDetails: {
        transactionId: 'tran_1',
        merchantId: 'mcht_1',
        orderId: 'ordr_1',
        amount: { minorCurrencyUnits: 500, currency: 'AUD' },
        status: 'authorised',
      },
      paymentMethod: { paymentMethodType: 'Card' },
    });
    expect(Object.keys(legacy)).toEqual([
      '_id',
      'merchantId',
      'marketplaceId',
      'merchantOrderId',
      'amount',
      'currency',
      'status',
      'transactionPayType',
      'statusBeforeDispute',
      'lastChargeId',
      'payoutId',
      'refunds',
    ]);
    expect(legacy.status).toBe('not_captured');
    expect(JSON.stringify(legacy)).toBe(
      '{"_id":"tran_1","merchantId":"mcht_1","marketplaceId":null,"merchantOrderId":"ordr_1","amount":500,"currency":"AUD","status":"not_captured","transactionPayType":{"payCardId":"card_1"},"statusBeforeDispute":null,"lastChargeId":null,"payoutId":null,"refunds":[]}',
    );
  });

  it("builds an open shape's rule keys first, then the other current keys renamed through the vocabulary, each object anew", () => {
    const item = compileShape(ORDER_ITEM);
    const first = item.backward({
      description: 'Book',
      amount: { minorCurrencyUnits: 500, currency: 'AUD' },
      quantity: 2,
      customerEmailAddress: 'a@b.co',
    });
    expect(JSON.stringify(first)).toBe(
      '{"amount":500,"currency":"AUD","description":"Book","quantity":2,"customerEmail":"a@b.co"}',
    );
    // a rule that gives undefined leaves its key out; another item's keys do not leak into the next object
    const second = item.backward({ sku: 'BK-2' });
    expect(second).toStrictEqual({ sku: 'BK-2' });
    expect(Object.keys(item.backward({ quantity: 1, amount: { minorCurrencyUnits: 1, currency: 'NZD' } }))).toEqual([
      'amount',
      'currency',
      'quantity',
    ]);
    // a current key that renames onto a rule's legacy key fills it only when the rule gave nothing
    const open = compileShape({ email: from('contact.email') });
    expect(open.backward({ emailAddress: 'x@y.co' })).toStrictEqual({ email: 'x@y.co' });
    expect(open.backward({ contact: { email: 'c@y.co' }, emailAddress: 'x@y.co' })).toStrictEqual({ email: 'c@y.co' });
  });

  it("carries an open shape's other metadata byte for byte both ways, and leaves out a current key that holds undefined", () => {
    const open = compileShape({ email: from('contact.email') });
    const metadata = { emailAddress: 'kept@y.co', referenceOrderId: 'kept', nested: { givenName: 'kept' } };
    const legacy = open.backward({ metadata, phoneNumber: '+61400000000', gone: undefined });
    expect(legacy).toStrictEqual({ metadata, phoneno: '+61400000000' });
    expect('gone' in legacy).toBe(false);
    const forward = compileShape({ email: 'emailAddress' }).forward({
      email: 'a@b.co',
      metadata: { email: 'kept', firstName: 'kept' },
      firstName: 'Jo',
    });
    expect(forward).toStrictEqual({
      emailAddress: 'a@b.co',
      metadata: { email: 'kept', firstName: 'kept' },
      givenName: 'Jo',
    });
  });
});

describe('guards', () => {
  it('a closed shape cannot list the key __proto__ (its object literal would set the prototype instead)', () => {
    const spec = Object.defineProperty({ a: from('a') }, '__proto__', { value: from('x'), enumerable: true });
    expect(() => compileShape(closed(spec))).toThrow('a closed shape cannot have the key __proto__');
  });

  it('a null money object in a current answer stays null (money) or leaves its flat keys out (flatMoney, flatCurrency)', () => {
    const nested = compileShape(closed({ total: money('amount') }));
    expect(nested.backward({ amount: null })).toStrictEqual({ total: null });
    expect(nested.backward({ amount: { minorCurrencyUnits: 250, currency: 'NZD' } })).toStrictEqual({
      total: { amount: 250, currency: 'NZD' },
    });
    const flat = compileShape(closed({ amount: flatMoney('total'), currency: flatCurrency('total') }));
    expect(flat.backward({ total: null })).toStrictEqual({});
    expect(flat.backward({})).toStrictEqual({});
    expect(flat.backward({ total: { minorCurrencyUnits: 900, currency: 'AUD' } })).toStrictEqual({
      amount: 900,
      currency: 'AUD',
    });
  });
});
