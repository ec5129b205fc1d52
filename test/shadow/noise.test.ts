/**
 * The comparison's noise rules, in process: what may differ between two answers without being a
 * mismatch, and what never may. Written to kill the mutants that survived before (issue 43): the id
 * and timestamp checks with `&&` turned into `||`, the same-kind check replaced by `true`, and the
 * configured ignore rules.
 */
import { describe, expect, it } from 'vitest';
import {
  builtinNoise,
  globToRegExp,
  learnable,
  NoiseRules,
  RESOURCE_IDS,
  sameKindIds,
} from '../../src/shadow/noise.js';

const d = (path: string, primary: unknown, candidate: unknown) => ({ path, primary, candidate });

describe('built-in noise', () => {
  it('never takes the ids of resources as noise: on one store one resource has one id', () => {
    expect(builtinNoise(d('merchantOrderId', 'ordr_a1', 'ordr_b2'))).toBeNull();
    expect(builtinNoise(d('refundId', 'rfnd_first', 'rfnd_second'))).toBeNull();
    expect(
      builtinNoise(d('agreementUid', '0b5e7a52-8f1e-4d4c-9c1e-0f4b2f9e6a11', '9a1c2b3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d')),
    ).toBeNull();
  });

  it("pairs ids of one kind only (an isolated candidate's own ids), never of different kinds or an id on one side", () => {
    expect(sameKindIds('ordr_a1', 'ordr_b2')).toBe(true);
    expect(sameKindIds('tran_a1', 'ordr_a1')).toBe(false);
    expect(sameKindIds('tran_a1', 'cust_a1')).toBe(false);
    expect(sameKindIds('tran_a1', 'not an id')).toBe(false);
    expect(sameKindIds('not an id', 'tran_a1')).toBe(false);
    expect(sameKindIds('tran_a1', undefined)).toBe(false);
    expect(sameKindIds(undefined, 'tran_a1')).toBe(false);
    expect(sameKindIds('tran_a1', 42)).toBe(false);
    expect(sameKindIds('0b5e7a52-8f1e-4d4c-9c1e-0f4b2f9e6a11', 'x')).toBe(false);
    expect(sameKindIds('x', '0b5e7a52-8f1e-4d4c-9c1e-0f4b2f9e6a11')).toBe(false);
    expect(sameKindIds('0b5e7a52-8f1e-4d4c-9c1e-0f4b2f9e6a11', '9a1c2b3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d')).toBe(true);
    expect(sameKindIds('0B5E7A52-8F1E-4D4C-9C1E-0F4B2F9E6A11', '9A1C2B3D-4E5F-4A6B-8C7D-0E1F2A3B4C5D')).toBe(true);
    expect(sameKindIds('bown_a1', 'bown_b2')).toBe(true);
    expect(sameKindIds('chk_a1', 'chk_b2')).toBe(true);
    expect(sameKindIds('card_a1', 'card_b2')).toBe(true);
    // two values that only look alike before an underscore are no ids
    expect(sameKindIds('foo_a1', 'foo_b2')).toBe(false);
    expect(sameKindIds('ordr_a1', 'ordr')).toBe(false);
    expect(sameKindIds('ordr', 'ordr_a1')).toBe(false);
    expect(sameKindIds('ordr_a1', 'ordr_not an id')).toBe(false);
    expect(sameKindIds('ordr_not an id', 'ordr_a1')).toBe(false);
    expect([...'GET /orders/ordr_a1/x?y=tran_b2 {"id":"rfnd_c3"}'.matchAll(RESOURCE_IDS)].map((m) => m[0])).toEqual([
      'ordr_a1',
      'tran_b2',
      'rfnd_c3',
    ]);
  });

  it('takes two tracers or request ids as noise, but not a tracer against anything else', () => {
    expect(builtinNoise(d('tracer', 'req-0001-abcd:candidate', 'req-0002-efgh'))).toBe('id');
    expect(
      builtinNoise(d('error.tracer', '5f2c1e8a-0b1d-4c3e-9f2a-1b2c3d4e5f6a', 'req-12345678:readback-primary')),
    ).toBe('id');
    expect(builtinNoise(d('tracer', 'req-0001-abcd', 'x'))).toBeNull();
    expect(builtinNoise(d('tracer', 'x', 'req-0001-abcd'))).toBeNull();
    // the same two values at another path are not a tracer's
    expect(builtinNoise(d('internalOrderId', 'req-0001-abcd', 'req-0002-efgh'))).toBeNull();
  });

  it('takes two timestamps as noise, never a timestamp against anything else', () => {
    expect(builtinNoise(d('updatedAt', '2026-11-26T10:00:00.000Z', '2026-11-26T10:00:01.000Z'))).toBe('timestamp');
    expect(builtinNoise(d('paidOn', '2026-11-26', '2026-11-27'))).toBe('timestamp');
    expect(builtinNoise(d('paidOn', 'on 2026-11-26', '2026-11-27'))).toBeNull();
    expect(builtinNoise(d('updatedAt', '2026-11-26T10:00:00.000Z', 'yesterday'))).toBeNull();
    expect(builtinNoise(d('updatedAt', 'yesterday', '2026-11-26T10:00:00.000Z'))).toBeNull();
    expect(builtinNoise(d('updatedAt', '2026-11-26T10:00:00.000Z', null))).toBeNull();
    expect(builtinNoise(d('updatedAt', '2026-11-26T10:00:00+10:00', '2026-11-26T10:00:00-03:30'))).toBe('timestamp');
    expect(builtinNoise(d('updatedAt', '2026-11-26T10:00:00+1:00', '2026-11-26T10:00:00Z'))).toBeNull();
    expect(builtinNoise(d('updatedAt', '2026-11-26T10:00:00+10:0', '2026-11-26T10:00:00Z'))).toBeNull();
    expect(builtinNoise(d('updatedAt', '2026-11-26T10:00:00+1a:00', '2026-11-26T10:00:00Z'))).toBeNull();
    expect(builtinNoise(d('updatedAt', '2026-11-26T10:00:00*10:00', '2026-11-26T10:00:00Z'))).toBeNull();
  });

  it('takes two timestamps as noise only when they are of one format (a date only for a date and time is a mismatch)', () => {
    expect(builtinNoise(d('createdAt', '2026-11-26T10:00:00.000Z', '2026-11-26'))).toBeNull();
    expect(builtinNoise(d('createdAt', '2026-11-26', '2026-11-26T10:00:00.000Z'))).toBeNull();
    expect(builtinNoise(d('createdAt', '2026-11-26T10:00:00.000Z', '2026-11-26T10:00:00Z'))).toBeNull();
    expect(builtinNoise(d('createdAt', '2026-11-26T10:00:00.000Z', '2026-11-26T10:00:00.000+00:00'))).toBeNull();
    expect(builtinNoise(d('updatedAt', '2026-11-26T10:00:00+10:00', '2026-11-26T10:00:00-0330'))).toBeNull();
    expect(builtinNoise(d('createdAt', '2026-11-26T10:00:00.123Z', '2026-11-27T11:30:59.999Z'))).toBe('timestamp');
  });

  it('knows a tracer by its whole key', () => {
    expect(builtinNoise(d('tracerNote', 'req-0001-abcd', 'req-0002-efgh'))).toBeNull();
  });

  it('never takes a status, an amount or a currency as noise', () => {
    expect(builtinNoise(d('$status', 200, 201))).toBeNull();
    expect(builtinNoise(d('amount', 1000, 100000))).toBeNull();
    expect(builtinNoise(d('currency', 'AUD', 'NZD'))).toBeNull();
    expect(builtinNoise(d('status', 'paid', 'not_captured'))).toBeNull();
  });
});

describe('learned noise', () => {
  it('never learns the status, amounts, currencies or ids, whatever two reads showed', () => {
    expect(learnable(d('$status', 200, 404))).toBe(false);
    expect(learnable(d('status', 'created', 'paid'))).toBe(false);
    expect(learnable(d('amount', 100, 200))).toBe(false);
    expect(learnable(d('refundedAmount', 0, 100))).toBe(false);
    expect(learnable(d('refunds[1].amount', 0, 100))).toBe(false);
    expect(learnable(d('currency', 'AUD', 'NZD'))).toBe(false);
    expect(learnable(d('_id', 'x', 'y'))).toBe(false);
    expect(learnable(d('merchantOrderId', 'x', 'y'))).toBe(false);
    expect(learnable(d('note', 'tran_a1', 'tran_b2'))).toBe(false);
    expect(learnable(d('note', 'first', 'second'))).toBe(true);
    expect(learnable(d('metadata.lastSeen', 'a', 'b'))).toBe(true);
    // the words whole: a field that only starts with one is learnable
    expect(learnable(d('statusText', 'a', 'b'))).toBe(true);
    expect(learnable(d('amountNote', 'a', 'b'))).toBe(true);
    expect(learnable(d('currencyNote', 'a', 'b'))).toBe(true);
    expect(learnable(d('note.$status', 'a', 'b'))).toBe(true);
    expect(learnable(d('$statusLine', 'a', 'b'))).toBe(true);
    expect(learnable(d('baseCurrency', 'a', 'b'))).toBe(false);
  });

  it('remembers noise another gateway learned, keeping the first evidence of a path', () => {
    const rules = new NoiseRules();
    expect(rules.learnedFor('L9')).toEqual([]);
    const first = { route: 'L9', path: 'note', evidence: { requestId: 'r1', time: 't1' } };
    rules.remember(first);
    rules.remember({ route: 'L9', path: 'note', evidence: { requestId: 'r2', time: 't2' } });
    expect(rules.learnedFor('L9')).toEqual([first]);
    expect(rules.explain('L9', d('note', 'a', 'b'))).toBe('learned');
  });

  it('keeps what it learned per route with its evidence, and explains only that route by it', () => {
    const rules = new NoiseRules();
    const added = rules.learn(
      'L6',
      [d('status', 'created', 'paid'), d('note[3]', 'a', 'b')],
      'req-1',
      '2026-11-26T10:00:00.000Z',
    );
    expect(added).toEqual([
      {
        route: 'L6',
        path: 'note[*]',
        evidence: { requestId: 'req-1', time: '2026-11-26T10:00:00.000Z', first: 'a', second: 'b' },
      },
    ]);
    expect(rules.learn('L6', [d('note[0]', 'c', 'd')], 'req-2', 't')).toEqual([]);
    expect(rules.explain('L6', d('note[7]', 'x', 'y'))).toBe('learned');
    expect(rules.explain('L3', d('note[7]', 'x', 'y'))).toBeNull();
    expect(rules.explain('L6', d('status', 'created', 'paid'))).toBeNull();
    expect(rules.learnedFor('L6')).toHaveLength(1);
  });
});

describe('configured ignore rules', () => {
  it('explain a path of their route, or of every route for *, and nothing else', () => {
    const rules = new NoiseRules([
      { route: 'L3', path: 'metadata.*' },
      { route: '*', path: '**.trackingNumber' },
      { route: 'L6', path: 'refunds[*].createdAt' },
    ]);
    expect(rules.explain('L3', d('metadata.cart', 1, 2))).toBe('rule');
    expect(rules.explain('L1', d('metadata.cart', 1, 2))).toBeNull();
    expect(rules.explain('L3', d('metadata.cart.id', 1, 2))).toBeNull();
    expect(rules.explain('L1', d('shipping.trackingNumber', 'a', 'b'))).toBe('rule');
    expect(rules.explain('L12', d('order.shipping.trackingNumber', 'a', 'b'))).toBe('rule');
    expect(rules.explain('L6', d('refunds[2].createdAt', 'a', 'b'))).toBe('rule');
    expect(rules.explain('L6', d('refunds[2].amount', 1, 2))).toBeNull();
    expect(rules.explain('L7', d('refunds[2].createdAt', 'a', 'b'))).toBeNull();
  });

  it('glob: * one segment, ** any, [*] any index; everything else literal', () => {
    expect(globToRegExp('a.*').test('a.b')).toBe(true);
    expect(globToRegExp('a.*').test('a.b.c')).toBe(false);
    expect(globToRegExp('a.**').test('a.b.c')).toBe(true);
    expect(globToRegExp('items[*].sku').test('items[12].sku')).toBe(true);
    expect(globToRegExp('items[*].sku').test('items.sku')).toBe(false);
    expect(globToRegExp('items[*].sku').test('items[].sku')).toBe(false);
    expect(globToRegExp('items[*].sku').test('items[x].sku')).toBe(false);
    expect(globToRegExp('a.b').test('aXb')).toBe(false);
    expect(globToRegExp('$status').test('$status')).toBe(true);
  });
});
