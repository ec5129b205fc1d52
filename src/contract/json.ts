/**
 * Request bodies are parsed once, here: malformed JSON, `__proto__` / `constructor.prototype` keys and
 * nesting deeper than MAX_JSON_DEPTH are a 400 naming the body, before anything else looks at them.
 */
import sjson from 'secure-json-parse';
import { PaybridgeError } from '../errors.js';

/** Deeper bodies are refused: nothing in either API nests this deep, and JSON.stringify would overflow. */
export const MAX_JSON_DEPTH = 64;

/** The deepest bracket nesting of a JSON text, strings skipped; stops counting past the limit. */
function depthOf(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** The parsed body, undefined for an empty one, or a PaybridgeError (400 invalid_request). */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (depthOf(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
    throw new PaybridgeError('invalid_request', `body: nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    if (/prototype/i.test((err as Error).message))
      throw new PaybridgeError('invalid_request', 'body: keys __proto__ and constructor.prototype are not allowed');
    throw new PaybridgeError('invalid_request', 'body: malformed JSON');
  }
}
