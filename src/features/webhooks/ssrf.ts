import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import net from 'node:net';
import type { Config } from '../../config.js';
import { badRequest, type FieldError } from '../../platform/problem.js';

/**
 * The guard against webhooks aimed at Intake's own network (API.md §7): outside
 * development mode a webhook URL may not reach loopback, private, link-local, metadata
 * or otherwise non-public addresses. It is applied twice: at registration
 * (`assertDeliverableUrl`, which resolves the host name) and at connect time
 * (`guardedLookup`, so that a name that resolved to a public address at registration and
 * to 127.0.0.1 later — DNS rebinding — still cannot be reached).
 */

/** Whether the private-address guard applies: production, unless WEBHOOK_ALLOW_PRIVATE=true. */
export function ssrfGuardOn(config: Pick<Config, 'production' | 'webhookAllowPrivate'>): boolean {
  return config.production && !config.webhookAllowPrivate;
}

type Range = readonly [base: number, prefix: number];

const ip4 = (text: string): number => text.split('.').reduce((value, part) => value * 256 + Number(part), 0);
const range4 = (cidr: string): Range => {
  const [base = '', prefix = '32'] = cidr.split('/');
  return [ip4(base), Number(prefix)];
};

/** IPv4 ranges no webhook may reach: none of them is the public internet. */
const FORBIDDEN_V4: readonly Range[] = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, cloud metadata (169.254.169.254)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.88.99.0/24', // the former 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and the broadcast address 255.255.255.255
].map(range4);

function inRange4(address: number, [base, prefix]: Range): boolean {
  const size = 2 ** (32 - prefix);
  return Math.floor(address / size) === Math.floor(base / size);
}

function isForbiddenV4(address: number): boolean {
  return FORBIDDEN_V4.some((range) => inRange4(address, range));
}

/** The eight 16-bit groups of an IPv6 address (zone ids dropped), or undefined when it is not one. */
function groupsOf(text: string): number[] | undefined {
  const address = text.replace(/%.*$/, '');
  if (!net.isIPv6(address)) return undefined;
  let head = address;
  const tail: number[] = [];
  // a trailing dotted quad (::ffff:127.0.0.1) is two groups
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (quad?.[1]) {
    const value = ip4(quad[1]);
    tail.push(Math.floor(value / 65536), value % 65536);
    head = address.slice(0, -quad[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const [left = '', right] = head.split('::');
  const before = parse(left);
  const after = [...(right === undefined ? [] : parse(right)), ...tail];
  if (right === undefined) return [...before, ...after];
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const v4Of = (high: number, low: number) => high * 65536 + low;

function isForbiddenV6(groups: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zeroTo(8)) return true; // ::
  if (zeroTo(7) && g7 === 1) return true; // ::1
  // an IPv4 address inside an IPv6 one is judged as that IPv4 address
  if (zeroTo(5) && g5 === 0xffff) return isForbiddenV4(v4Of(g6, g7)); // ::ffff:a.b.c.d, mapped
  if (zeroTo(6)) return isForbiddenV4(v4Of(g6, g7)); // ::a.b.c.d, the deprecated "compatible" form
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return isForbiddenV4(v4Of(g6, g7)); // ::ffff:0:a.b.c.d, SIIT
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isForbiddenV4(v4Of(g6, g7)); // 64:ff9b::/96, NAT64
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true; // 64:ff9b:1::/48, local-use NAT64
  if (g0 === 0x2002) return isForbiddenV4(v4Of(g1, g2)); // 2002::/16, 6to4
  // 2001::/32, Teredo: the tunnel's far end is an IPv4 address hidden in the last groups
  // (obfuscated), so where it leads cannot be judged: refused like a private address.
  if (g0 === 0x2001 && g1 === 0) return true;
  if (g0 === 0x2001 && g1 === 0xdb8) return true; // 2001:db8::/32, documentation: never a real host
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // 100::/64, discard-only
  if ((g0 & 0xfe00) === 0xfc00) return true; // fc00::/7, unique local (fd00:ec2::254, AWS metadata)
  if ((g0 & 0xffc0) === 0xfe80) return true; // fe80::/10, link-local
  if ((g0 & 0xffc0) === 0xfec0) return true; // fec0::/10, the deprecated site-local
  if ((g0 & 0xff00) === 0xff00) return true; // ff00::/8, multicast
  return false;
}

/** Whether `ip` (an IPv4 or IPv6 literal) is an address no webhook may reach; anything else is too. */
export function isForbiddenAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return isForbiddenV4(ip4(ip));
  const groups = groupsOf(ip);
  return groups === undefined || isForbiddenV6(groups);
}

/** Raised (as a lookup error) when a host name resolves to a forbidden address. */
export class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    // the message is shown to the owner (delivery attempts): it names no internal address
    super(`${hostname} resolves to a loopback, private or reserved address, which webhooks may not reach`);
  }
}

const LOOKUP_TIMEOUT_MS = 5000;

/**
 * A name under `.invalid` never resolves (RFC 6761 §6.4: resolvers should say so at once), so it
 * is not found without asking a name server: the same answer with the network down or up.
 */
function neverResolves(hostname: string): NodeJS.ErrnoException | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name !== 'invalid' && !name.endsWith('.invalid')) return undefined;
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
    code: 'ENOTFOUND',
    hostname,
    syscall: 'getaddrinfo',
  });
}

function lookupAll(hostname: string): Promise<LookupAddress[]> {
  const invalid = neverResolves(hostname);
  if (invalid) return Promise.reject(invalid);
  return new Promise((resolve, reject) => {
    // getaddrinfo cannot be cancelled: a slow resolver is given up on, not waited for
    const timer = setTimeout(
      () => reject(Object.assign(new Error(`resolving ${hostname} timed out`), { code: 'ETIMEOUT' })),
      LOOKUP_TIMEOUT_MS,
    );
    dns.lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(addresses);
    });
  });
}

const urlError = (code: string, message: string): FieldError => ({ field: 'url', code, message });

/**
 * Why `url` cannot receive webhooks, or undefined when it can: not http(s), credentials
 * in it, or — with `guard` — a host that is, or resolves to, a forbidden address (every
 * address counts: a client may connect to any of them). Returns the problem so that the
 * form `webhooks` member can report it under its own field name.
 */
export async function deliverableUrlError(
  url: string,
  options: { guard: boolean },
): Promise<FieldError | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return urlError('format', 'must be an absolute http:// or https:// URL');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    return urlError('format', 'must be an absolute http:// or https:// URL');
  }
  // Credentials in a URL end up in logs and in every read of the webhook: use a secret instead.
  if (parsed.username !== '' || parsed.password !== '') {
    return urlError('format', 'must not contain credentials (user:password@); use the webhook secret');
  }
  if (!options.guard) return undefined;
  // WHATWG URL parsing has already turned 2130706433, 0x7f.1 and friends into dotted quads.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host) !== 0) {
    return isForbiddenAddress(host)
      ? urlError(
          'forbidden_address',
          `${host} is a loopback, private or reserved address, which webhooks may not reach`,
        )
      : undefined;
  }
  const name = host.replace(/\.$/, '').toLowerCase();
  // localhost names are loopback whatever a resolver says of them (RFC 6761), `localhost.` too
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return urlError('forbidden_address', `${host} is a loopback name, which webhooks may not reach`);
  }
  // a name under .invalid never resolves: no webhook can ever reach it
  if (neverResolves(host)) {
    return urlError('unresolvable', `the host name ${host} does not resolve: .invalid names never do`);
  }
  // Any other name that does not resolve now (no DNS on this machine, a name not yet published)
  // resolves to no forbidden address (API.md §7) and is taken: every delivery judges the
  // addresses it connects to.
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host);
  } catch {
    return undefined;
  }
  const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address));
  // The address itself is not named: registration must not map the internal network for a caller.
  if (forbidden) {
    return urlError(
      'forbidden_address',
      `${host} resolves to a loopback, private or reserved address, which webhooks may not reach`,
    );
  }
  return undefined;
}

/** Throws 400 invalid_parameter (field `url`) when `url` cannot receive webhooks; see `deliverableUrlError`. */
export async function assertDeliverableUrl(url: string, options: { guard: boolean }): Promise<void> {
  const error = await deliverableUrlError(url, options);
  if (error) {
    throw badRequest('invalid_parameter', `The webhook url ${error.message}`, { errors: [error] });
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The callback and options of a `dns.lookup`-shaped call (options may be left out or be a
 * family number); a `.invalid` name is answered not found at once, and undefined returned.
 */
function startLookup(
  hostname: string,
  options: LookupOptions | number | LookupCallback,
  callback?: LookupCallback,
): { done: LookupCallback; given: LookupOptions } | undefined {
  const done = (typeof options === 'function' ? options : callback) as LookupCallback;
  const given: LookupOptions =
    typeof options === 'number' ? { family: options } : typeof options === 'object' ? options : {};
  const invalid = neverResolves(hostname);
  if (!invalid) return { done, given };
  process.nextTick(() => done(invalid, given.all ? [] : ''));
  return undefined;
}

/**
 * `dns.lookup` that fails with `ForbiddenAddressError` when any address of the name is
 * forbidden: for connect time (undici's `connect.lookup`, `net.connect`'s `lookup`), where
 * it closes the window between the check at registration and the connection. Honours
 * `all` (Node's happy-eyeballs connect asks for every address) and `family`. An IP
 * literal in a URL never reaches a lookup: check those with `isForbiddenAddress`
 * (`assertDeliverableUrl` does) before connecting.
 */
export function guardedLookup(
  hostname: string,
  options: LookupOptions | number | LookupCallback,
  callback?: LookupCallback,
): void {
  const call = startLookup(hostname, options, callback);
  if (!call) return;
  const { done, given } = call;
  dns.lookup(hostname, { ...given, all: true }, (error, addresses) => {
    if (error) return done(error, given.all ? [] : '');
    const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address));
    if (forbidden) return done(new ForbiddenAddressError(hostname, forbidden.address), given.all ? [] : '');
    const first = addresses[0];
    if (!first) {
      const empty = Object.assign(new Error(`${hostname} resolves to no address`), { code: 'ENOTFOUND' });
      return done(empty, given.all ? [] : '');
    }
    if (given.all) return done(null, addresses);
    return done(null, first.address, first.family);
  });
}

/** `dns.lookup` with `.invalid` names not found at once (`neverResolves`): for deliveries allowed to reach any address. */
export function unguardedLookup(
  hostname: string,
  options: LookupOptions | number | LookupCallback,
  callback?: LookupCallback,
): void {
  const call = startLookup(hostname, options, callback);
  if (!call) return;
  const { done, given } = call;
  dns.lookup(hostname, given, done as never);
}
