import { describe, expect, it } from 'vitest';
import { compareAnswers } from '../../src/shadow/diff.js';

const answer = (body: unknown, status = 200) => ({ status, body });

describe('comparing two answers field by field', () => {
  it('finds nothing between two answers of the same fields and values', () => {
    const body = {
      _id: 'tran_1',
      amount: 500,
      refunds: [{ refundId: 'rfnd_1', amount: 100 }],
      metadata: { cart: { id: 42 } },
    };
    expect(compareAnswers(answer(body), answer(structuredClone(body)))).toEqual([]);
  });

  it('names each differing leaf by its path, nested objects and arrays included', () => {
    const primary = {
      _id: 'tran_1',
      amount: 500,
      refunds: [{ refundId: 'rfnd_1', amount: 100 }],
      metadata: { cart: { id: 42 } },
    };
    const candidate = {
      _id: 'tran_1',
      amount: 501,
      refunds: [{ refundId: 'rfnd_1', amount: 90 }],
      metadata: { cart: { id: 43 } },
    };
    expect(compareAnswers(answer(primary), answer(candidate))).toEqual([
      { path: 'amount', primary: 500, candidate: 501 },
      { path: 'refunds[0].amount', primary: 100, candidate: 90 },
      { path: 'metadata.cart.id', primary: 42, candidate: 43 },
    ]);
  });

  it('matches the same fields written in another order, and still names a differing one', () => {
    const primary = { status: 'paid', amount: 500, currency: 'AUD' };
    expect(compareAnswers(answer(primary), answer({ currency: 'AUD', status: 'paid', amount: 500 }))).toEqual([]);
    expect(compareAnswers(answer(primary), answer({ currency: 'NZD', status: 'paid', amount: 500 }))).toEqual([
      { path: 'currency', primary: 'AUD', candidate: 'NZD' },
    ]);
  });

  it('reports a field only one side has, whichever side', () => {
    expect(compareAnswers(answer({ a: 1, fee: 226 }), answer({ a: 1, payoutId: null }))).toEqual([
      { path: 'fee', primary: 226 },
      { path: 'payoutId', candidate: null },
    ]);
    // as many keys on each side, one renamed: both ends of the rename are reported
    expect(compareAnswers(answer({ a: 1, b: 2 }), answer({ a: 1, c: 2 }))).toEqual([
      { path: 'b', primary: 2 },
      { path: 'c', candidate: 2 },
    ]);
  });

  it('reports a status difference, and a whole value whose type differs', () => {
    expect(compareAnswers(answer({ refunds: [] }, 200), answer({ refunds: null }, 404))).toEqual([
      { path: '$status', primary: 200, candidate: 404 },
      { path: 'refunds', primary: [], candidate: null },
    ]);
  });
});
