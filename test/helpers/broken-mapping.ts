import { ALL_MAPPINGS } from '../../mappings/index.js';
import { LEGACY_TRANSACTION } from '../../mappings/shapes.js';
import { defineMapping, type Mapping } from '../../src/translate/define.js';
import { closed, from } from '../../src/translate/shape.js';

/** Every mapping, with a bug in L6: `fee` read from the fixed fee instead of the total. */
export function mappingsWithBrokenL6Fee(): Mapping[] {
  return ALL_MAPPINGS.map((m) =>
    m.route !== 'L6' ? m : defineMapping({ ...m, response: { shape: closed({ ...LEGACY_TRANSACTION.spec, fee: from('serviceFees.fixedAmount') }) } }),
  );
}
