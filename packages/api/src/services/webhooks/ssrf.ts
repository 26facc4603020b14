import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

// In production a delivery never connects to the service's own network (integrations §2, SSRF):
// loopback, private (RFC 1918, CGNAT, IPv6 ULA), link-local (169.254/16 with the cloud metadata
// address, fe80::/10) and unspecified addresses are refused when connecting, after DNS has answered,
// so a name that resolves to one (or changes to one after the URL was saved) is refused too.

const refused = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  refused.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  refused.addSubnet(net, prefix, 'ipv6');
}

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is checked as the IPv4 one. */
const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** Is this address one a production delivery must not reach? */
export function isRefusedAddress(address: string): boolean {
  const mapped = MAPPED.exec(address)?.[1];
  if (mapped) return isRefusedAddress(mapped);
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOKADDRESS';
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * `lookup` for node:http that resolves as usual and fails when any answer is a refused address
 * (any, not only the first: the socket might try another of them).
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const bad = addresses.find((a) => isRefusedAddress(a.address));
    if (bad)
      return callback(
        new RefusedAddressError(`${hostname} resolves to ${bad.address}, a private address`),
        '',
      );
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(new RefusedAddressError(`${hostname} has no address`), '');
    callback(null, first.address, first.family);
  });
}

/** An IP literal in a URL host (node:net connects to it without a lookup): checked before connecting. */
export function refusedLiteral(hostname: string): string | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  return isIP(host) && isRefusedAddress(host) ? host : null;
}
