import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { defineMapping, toPath } from '../../src/translate/define.js';
import { compileRouter } from '../../src/translate/router.js';

const valid = () =>
  defineMapping({
    route: 'L3',
    description: 'Read an order',
    legacy: 'GET /orders/{merchantOrderId}',
    current: 'GET /orders/{orderId}',
    params: { merchantOrderId: toPath('orderId', 'order') },
    response: { shape: {} },
  });

describe('mappings are checked when the router compiles', () => {
  it('compiles one mapping for each of L1-L31 from mappings/', () => {
    const router = compileRouter(ALL_MAPPINGS);
    expect(router.mappings.map((m) => m.mapping.route).sort()).toEqual(
      Array.from({ length: 31 }, (_, i) => `L${i + 1}`).sort(),
    );
    for (const m of router.mappings) expect(m.mapping.source).toMatch(/^mappings\/\w+\.ts$/);
  });

  it('stops on a mapping without a description, naming the file and the mapping', () => {
    const broken = { ...valid(), description: ' ' };
    expect(() => compileRouter([broken])).toThrow('mappings-load.test.ts: mapping L3 (GET /orders/{merchantOrderId}): a description is required');
  });

  it('stops on two mappings for one legacy route', () => {
    expect(() => compileRouter([valid(), valid()])).toThrow(/mapping L3 .*route L3 is already mapped in .*mappings-load\.test\.ts/);
  });

  it('stops on a mapping that matches no legacy route', () => {
    const wrongPath = { ...valid(), legacy: 'GET /order/{merchantOrderId}' };
    expect(() => compileRouter([wrongPath])).toThrow(/matches no legacy route: L3 is GET \/orders\/\{merchantOrderId\}/);
    const unknownRoute = { ...valid(), route: 'L99' };
    expect(() => compileRouter([unknownRoute])).toThrow(/no legacy route L99/);
  });

  it('stops on a path parameter without a target and on a current path parameter never filled', () => {
    expect(() => compileRouter([{ ...valid(), params: {} }])).toThrow(/path parameter merchantOrderId has no target/);
    expect(() =>
      compileRouter([{ ...valid(), current: 'GET /orders/{id}', body: z.object({}) }]),
    ).toThrow(/current path parameter id is never filled/);
  });

  it('stops on a current call the current API does not have, and on an action its operation does not take', () => {
    expect(() => compileRouter([{ ...valid(), current: 'GET /order/{orderId}' }])).toThrow(
      /mapping L3 .*GET \/order\/\{orderId\} is not an operation of the current API/,
    );
    const cancel = ALL_MAPPINGS.find((m) => m.route === 'L12')!;
    expect(compileRouter([cancel]).mappings).toHaveLength(1);
    expect(() => compileRouter([{ ...cancel, request: { wrap: 'DeleteOrder' } }])).toThrow(
      /mapping L12 .*PATCH \/orders\/\{orderId\} takes no action DeleteOrder \(it takes UpdateReferenceOrderId, CancelOrder\)/,
    );
    // a GET takes no body, so no action at all
    expect(() => compileRouter([{ ...valid(), request: { wrap: 'CancelOrder' } }])).toThrow(/GET \/orders\/\{orderId\} takes no action CancelOrder$/);
  });
});
