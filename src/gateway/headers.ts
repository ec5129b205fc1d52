/**
 * The headers the gateway sends on and answers back: hop-by-hop ones (and those a `Connection` header
 * names) dropped, the forwarding headers set by the gateway alone, as one flat list for undici.
 */

/**
 * Headers of one connection, never forwarded (RFC 9110 section 7.6.1), plus those recomputed and
 * `expect`: the gateway answers a client's `100-continue` itself (Node does) and reads the body whole
 * before it calls upstream, so there is nothing to wait for there (undici refuses the header).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

/**
 * Set by the gateway alone from what it checked (requests.ts `forwardedHeaders`): a client's own
 * values, valid or not, never reach an upstream, which builds URLs (a 3DS redirectURL) from them.
 */
const GATEWAY_SET = new Set(['x-forwarded-host', 'x-forwarded-proto', 'x-request-id']);

/** The header names a `Connection` header nominates as hop-by-hop (RFC 9110 section 7.6.1), lower case. */
function connectionNamed(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): ReadonlySet<string> | undefined {
  const connection = Object.hasOwn(headers, 'connection') ? headers.connection : undefined;
  if (connection === undefined) return undefined;
  const names = new Set<string>();
  for (const line of Array.isArray(connection) ? connection : [connection])
    for (const token of line.split(',')) {
      const name = token.trim().toLowerCase();
      if (name !== '' && name !== 'close' && name !== 'keep-alive') names.add(name);
    }
  return names.size === 0 ? undefined : names;
}

/**
 * Headers as the flat `[name, value, ...]` list an upstream call sends (no object grown key by key per
 * call): `own` without the hop-by-hop ones (those a `Connection` header names included) and without
 * the forwarding headers the gateway sets, then `extra`, then `x-request-id`. A repeated header goes
 * as one line per value.
 */
export function headerList(
  own: Readonly<Record<string, string | string[] | undefined>>,
  extra: Readonly<Record<string, string>> | undefined,
  requestId: string,
): string[] {
  const headers: string[] = [];
  const named = connectionNamed(own);
  for (const name in own) {
    if (!Object.hasOwn(own, name)) continue;
    const value = own[name];
    if (
      value === undefined ||
      GATEWAY_SET.has(name) ||
      HOP_BY_HOP.has(name) ||
      named?.has(name) ||
      (extra !== undefined && Object.hasOwn(extra, name))
    )
      continue;
    if (typeof value === 'string') headers.push(name, value);
    else for (const one of value) headers.push(name, one);
  }
  if (extra) for (const name in extra) if (name !== 'x-request-id') headers.push(name, extra[name]!);
  headers.push('x-request-id', requestId);
  return headers;
}

/** Headers (lower-case names) without the hop-by-hop ones, those a `Connection` header names included: what goes on to the next hop (the gateway sets its own length). */
export function endToEnd(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const named = connectionNamed(headers);
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named?.has(name)) out[name] = value;
  }
  return out;
}
