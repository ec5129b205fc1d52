import { ALL_MAPPINGS } from '../../mappings/index.js';
import { LEGACY_TRANSACTION } from '../../mappings/shapes.js';
import { PaybridgeError } from '../../src/errors.js';
import { defineMapping, type Mapping } from '../../src/translate/define.js';
import { closed, from } from '../../src/translate/shape.js';

/** Every mapping, with a bug in L6: `fee` read from the fixed fee instead of the total. */
export function mappingsWithBrokenL6Fee(): Mapping[] {
  return ALL_MAPPINGS.map((m) =>
    m.route !== 'L6'
      ? m
      : defineMapping({
          ...m,
          response: { shape: closed({ ...LEGACY_TRANSACTION.spec, fee: from('serviceFees.fixedAmount') }) },
        }),
  );
}

/**
 * L6 with a bug on a rare path: given an order that has no transaction it answers 400 invalid_request
 * where the legacy service answers 404 not_found.
 */
export function l6OrderWithoutTransactionAs400(m: Mapping): Mapping {
  const byOrder = m.byIdKind!.mapping;
  const original = byOrder.response as { reads: readonly never[]; map: (a: never, b: never, c: never) => unknown };
  const map = (a: never, b: never, c: never) => {
    try {
      return original.map(a, b, c);
    } catch (err) {
      throw err instanceof PaybridgeError && err.code === 'not_found'
        ? new PaybridgeError('invalid_request', 'transactionId: not a transaction')
        : err;
    }
  };
  return { ...m, byIdKind: { ...m.byIdKind!, mapping: { ...byOrder, response: { reads: original.reads, map } } } };
}
