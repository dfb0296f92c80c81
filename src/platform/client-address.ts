import { isIPv6 } from 'node:net';

/**
 * The key a per-client limit counts an address under. An IPv4 address is one client; an IPv6
 * client usually holds a whole /64 (one home or one cloud machine gets 2^64 addresses to pick
 * from), so counting each IPv6 address apart would give a guesser as many fresh budgets as it
 * likes. IPv4-mapped IPv6 (`::ffff:192.0.2.1`) is the IPv4 address it carries.
 */
export function clientBucket(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, `::` spelt out and each group without leading zeros. */
function expandIPv6(address: string): string[] {
  const withoutZone = address.split('%')[0] ?? address;
  const [head = '', tail] = withoutZone.split('::');
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  // an embedded IPv4 tail (::ffff:1.2.3.4 is handled above) counts as two groups
  const missing = 8 - left.length - right.length;
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, missing)).fill('0'), ...right];
  return groups.map((group) => (Number.parseInt(group, 16) || 0).toString(16));
}
