/**
 * The proxies whose `X-Forwarded-Host` and `X-Forwarded-Proto` the gateway believes (`trustedProxies`):
 * a TLS terminator in front of it says how the client reached it. From anyone else those headers are
 * the client's own words, and a 3DS `redirectURL` built from them would send a shopper elsewhere.
 */
import { BlockList, isIP } from 'node:net';

/** An address (`10.0.0.5`, `::1`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`): what trustedProxies takes. */
export function isAddressOrRange(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Whether a peer address is one of the trusted proxies (an IPv4 peer seen as `::ffff:a.b.c.d` counts as itself). */
export function trustedProxies(entries: readonly string[]): (address: string | undefined) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    if (address === undefined) return false;
    const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (v4 !== undefined) return list.check(v4, 'ipv4');
    return list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  };
}
