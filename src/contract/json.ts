/**
 * Request bodies are parsed once, here: malformed JSON, `__proto__` / `constructor.prototype` keys,
 * a key given twice in one object and nesting deeper than MAX_JSON_DEPTH are a 400 naming the body,
 * before anything else looks at them.
 */
import { isSafeNumber, LosslessNumber, parse as losslessParse, stringify as losslessStringify } from 'lossless-json';
import sjson from 'secure-json-parse';
import { PaybridgeError } from '../errors.js';

let exactSerialised = false;

/**
 * A JSON number that a JavaScript number cannot hold (`12345678901234567890`, more digits than a
 * double keeps): kept as its text so it leaves exactly as it came (metadata is carried byte for byte).
 * Anything that serialises it goes through stringifyJson.
 */
export class ExactNumber extends LosslessNumber {
  toJSON(): string {
    exactSerialised = true;
    return this.value;
  }
}

/**
 * Sixteen characters in a row, digits and decimal points, the first a digit: only a text holding them
 * can hold a number of sixteen digits or more, the only numbers a double may not hold
 * (`12345678901234567890`, but also `12345678.123456789`, whose digits a point splits). Written out
 * rather than as [\d.]{15}: irregexp then looks ahead sixteen characters and skips where the last
 * cannot belong (measured on answers of 0.5-1 KB: 150-300 ns a text, against 1,300-4,000 ns braced).
 */
const LONG_NUMBER = new RegExp('\\d' + '[\\d.]'.repeat(15), 'g');

/**
 * What may stand before a number's first digit in JSON text (nothing, `:`, `,`, `[`, white space, a
 * minus), or before a run of an exponent's or a fraction's digits (`e`, `E`, `+`, `.`): a run after
 * anything else (a letter, `_`, `"`) is inside a string.
 */
function mayPrecedeNumber(c: number): boolean {
  return (
    Number.isNaN(c) ||
    c === 58 ||
    c === 44 ||
    c === 91 ||
    c === 32 ||
    c === 10 ||
    c === 13 ||
    c === 9 ||
    c === 45 ||
    c === 101 ||
    c === 69 ||
    c === 43 ||
    c === 46
  );
}

/**
 * Whether a JSON text may hold a number of sixteen digits or more: a run of sixteen digits and
 * points after a character a number can follow. Runs after a letter, `_` or `"` are skipped whole:
 * they are inside strings (sandbox ids: eight hex digits of process tag, a base-36 counter and a
 * random tail make such a run in about one id in 125 while the counter is below 50, and a benchmark
 * reads one transaction for minutes, so the scan ran on every request of the runs that drew one).
 */
function mayHoldLongNumber(text: string): boolean {
  LONG_NUMBER.lastIndex = 0;
  for (let m = LONG_NUMBER.exec(text); m !== null; m = LONG_NUMBER.exec(text)) {
    if (mayPrecedeNumber(text.charCodeAt(m.index - 1))) return true;
    let i = LONG_NUMBER.lastIndex;
    for (let c = text.charCodeAt(i); (c >= 48 && c <= 57) || c === 46; c = text.charCodeAt(++i));
    LONG_NUMBER.lastIndex = i;
  }
  return false;
}

/**
 * Whether a JSON text holds a number of sixteen digits or more (its integer and fraction digits
 * together): the regex first, then, when a run may be a number, the character scan that skips
 * strings. The exact parse costs four to five times JSON.parse (a 931-byte transaction: 16-18
 * against 3.4 us; the scan adds 2.5 us).
 */
export function holdsLongNumber(text: string): boolean {
  return mayHoldLongNumber(text) && scan(text, Infinity).longNumber;
}

/** JSON text -> value, numbers a double cannot hold exactly as ExactNumbers (lossless-json). */
function exactParse(text: string): unknown {
  return losslessParse(text, null, (value) => (isSafeNumber(value) ? Number(value) : new ExactNumber(value)));
}

/** JSON text -> value; numbers a double cannot hold exactly become ExactNumbers. The text must be valid JSON. */
export function parseJsonValue(text: string): unknown {
  return holdsLongNumber(text) ? exactParse(text) : JSON.parse(text);
}

/** JSON.stringify that writes ExactNumbers as the numbers they were (a second, exact pass only when one is present). */
export function stringifyJson(value: unknown): string {
  exactSerialised = false;
  const text = JSON.stringify(value);
  if (!exactSerialised) return text;
  return losslessStringify(value) as string;
}

/** Deeper bodies are refused: nothing in either API nests this deep, and JSON.stringify would overflow. */
export const MAX_JSON_DEPTH = 64;

/**
 * One pass over a JSON text, strings skipped: its deepest bracket nesting (counting stops past the
 * limit) and whether a number has sixteen digits or more before its exponent, the point not
 * interrupting them (the only numbers a double may not hold; ids inside strings do not count, so
 * most bodies skip the exact second parse).
 */
function scan(text: string, limit: number): { depth: number; longNumber: boolean } {
  let depth = 0;
  let max = 0;
  let inString = false;
  let run = 0;
  let longNumber = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c >= 48 && c <= 57) {
      if (++run >= 16) longNumber = true;
      continue;
    } else if (c === 46 && run > 0)
      continue; // a decimal point: the fraction's digits count on
    else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
      if (max > limit) return { depth: max, longNumber };
    } else if (c === 125 || c === 93) depth--;
    run = 0;
  }
  return { depth: max, longNumber };
}

/** Whether a text holds at most `limit` opening brackets in all (strings included), counted by native searches. */
function bracketsAtMost(text: string, limit: number): boolean {
  let n = 0;
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) if (++n > limit) return false;
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) if (++n > limit) return false;
  return true;
}

/** How many keys a parsed JSON value holds, at every depth. */
function keyCount(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  if (Array.isArray(value)) for (const item of value) n += keyCount(item);
  else for (const key in value) n += 1 + keyCount((value as Record<string, unknown>)[key]);
  return n;
}

/** How many `":` a text holds: each key of a JSON text is one (a string value holding `\":` adds one more). */
function keyMarks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('":'); i >= 0; i = text.indexOf('":', i + 2)) n++;
  return n;
}

/**
 * The path of the first key a valid JSON text gives twice in one object (`paymentAmount.amount`), or
 * undefined: one pass over the text, strings skipped, a set of keys per open object.
 */
export function duplicateKey(text: string): string | undefined {
  interface Level {
    keys?: Set<string>;
    path: string;
    key: string;
    index: number;
    expectKey: boolean;
  }
  const stack: Level[] = [];
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
  const pathOfValue = (top: Level | undefined) =>
    top === undefined ? '' : top.keys ? join(top.path, top.key) : `${top.path}[${top.index}]`;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let j = i + 1;
      let escaped = false;
      for (let d = text.charCodeAt(j); d !== 34; d = text.charCodeAt(++j))
        if (d === 92) {
          escaped = true;
          j++;
        }
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        if (top.keys.has(key)) return join(top.path, key);
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === 123)
      stack.push({ keys: new Set(), path: pathOfValue(stack[stack.length - 1]), key: '', index: 0, expectKey: true });
    else if (c === 91) stack.push({ path: pathOfValue(stack[stack.length - 1]), key: '', index: 0, expectKey: false });
    else if (c === 125 || c === 93) stack.pop();
    else if (c === 44) {
      const top = stack[stack.length - 1];
      if (top?.keys) top.expectKey = true;
      else if (top) top.index++;
    }
  }
  return undefined;
}

/**
 * A key given twice in one object is refused (docs/decisions.md): parsers disagree on which one counts
 * (JSON.parse takes the last, others the first or refuse), so the gateway cannot know what the sender
 * meant, and an amount read one way here and another way by a service behind it is how money moves
 * wrongly. Checked by counting first: a text holds a duplicate only if it marks more keys than the
 * parsed value holds (or spaces a key from its colon), and only then is it scanned.
 */
function refuseDuplicateKeys(text: string, value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (keyMarks(text) <= keyCount(value) && !/"\s+:/.test(text)) return;
  const key = duplicateKey(text);
  if (key !== undefined)
    throw new PaybridgeError('invalid_request', `body.${key}: the key is given twice; send each field once`);
}

/** The parsed body, undefined for an empty one, or a PaybridgeError (400 invalid_request). */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  // Most bodies have fewer brackets in all than the depth allowed and no run of sixteen digits and
  // points anywhere: two native searches tell (about 1k instructions for an order, against 14k for
  // the character loop). Only the others are scanned, strings skipped.
  let longNumber = false;
  if (!bracketsAtMost(text, MAX_JSON_DEPTH) || mayHoldLongNumber(text)) {
    const scanned = scan(text, MAX_JSON_DEPTH);
    if (scanned.depth > MAX_JSON_DEPTH)
      throw new PaybridgeError('invalid_request', `body: nested deeper than ${MAX_JSON_DEPTH} levels`);
    longNumber = scanned.longNumber;
  }
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    if (/prototype/i.test((err as Error).message))
      throw new PaybridgeError('invalid_request', 'body: keys __proto__ and constructor.prototype are not allowed');
    throw new PaybridgeError('invalid_request', 'body: malformed JSON');
  }
  refuseDuplicateKeys(text, value);
  // valid and safe: parsed again, exactly, only when it holds a number a double may not
  return longNumber ? exactParse(text) : value;
}
