/** Request headers as the translator reads them, from the flat name-value lists HTTP stacks hand over. */
import { PaybridgeError } from '../errors.js';

/** A header line whose name is a number: WordPress's flattening of a PHP list (`0: Content-Type: ...`). */
const NUMERIC_NAME = /^\d+$/;

/** Lower-case header names by name as sent, remembered (clients send the same few names on every request), bounded. */
const lowered = new Map<string, string>();
const MAX_NAMES = 1024;

/** A header name in lower case (a look-up instead of a scan and, for `Limepay-SecretKey`, a new string per request). */
export function lowerCaseName(name: string): string {
  let lower = lowered.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowered.size >= MAX_NAMES) lowered.clear();
    lowered.set(name, lower);
  }
  return lower;
}

/**
 * Headers by lower-case name from a flat `[name, value, name, value, ...]` list (Node's `rawHeaders`,
 * undici's array form), a repeated header as an array (Node would join or drop it, and the gateway
 * counts credentials). Lines with numeric names are ignored (legacy-api.md section 0); a header named
 * `__proto__` is a 400.
 */
export function headerRecord(list: readonly string[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i < list.length; i += 2) {
    const name = lowerCaseName(list[i]!);
    // only a name starting with a digit can be all digits: the regex runs for those alone
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57 && NUMERIC_NAME.test(name)) continue;
    // the one name a plain object cannot hold as its own key; Object.prototype's other names (constructor) it can
    if (name === '__proto__')
      throw new PaybridgeError('invalid_request', 'header __proto__: not an acceptable header name');
    const value = list[i + 1]!;
    const prev = Object.hasOwn(out, name) ? out[name] : undefined;
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
