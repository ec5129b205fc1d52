/**
 * The JSON the deployed clients' serializers write, so a replay sends their bytes: PHP's json_encode
 * (default flags: a float from round() written `1000`, negative zero `-0`, `/` escaped as `\/`,
 * non-ASCII as `\uXXXX`; checked against PHP 8.2's own json_encode) and .NET's
 * DataContractJsonSerializer (members in ordinal order, `/` escaped, defaults omitted by the models).
 */

/**
 * A PHP float (what round(), `* 100` and Magento's decimals give). json_encode without
 * JSON_PRESERVE_ZERO_FRACTION writes it as the shortest decimal, with no `.0`: `1000`, `-0`, `110.00000000000001`.
 */
class PhpFloat {
  constructor(readonly value: number) {}
}
export const float = (value: number) => new PhpFloat(value);

interface Style {
  escapeUnicode: boolean;
  sortKeys: boolean;
}

function encodeString(s: string, style: Style): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '/') out += '\\/';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if (code > 0x7e && style.escapeUnicode) {
      for (const unit of ch.length === 2 ? [ch.charCodeAt(0), ch.charCodeAt(1)] : [code])
        out += `\\u${unit.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

function encode(value: unknown, style: Style): string {
  if (value instanceof PhpFloat) {
    const v = value.value;
    // beyond this PHP switches to its own exponent form (`1.0e+25`), which no replay needs
    if (!(Math.abs(v) < 1e15)) throw new Error(`no PHP float replay for ${v}`);
    return Object.is(v, -0) ? '-0' : String(v);
  }
  if (value === null) return 'null';
  if (typeof value === 'string') return encodeString(value, style);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => encode(v, style)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (style.sortKeys) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${encodeString(k, style)}:${encode(v, style)}`).join(',')}}`;
}

/** PHP's json_encode with default flags. */
export const phpJson = (value: unknown) => encode(value, { escapeUnicode: true, sortKeys: false });

/** .NET's DataContractJsonSerializer (members without an Order are written in ordinal order). */
export const dataContractJson = (value: unknown) => encode(value, { escapeUnicode: false, sortKeys: true });
