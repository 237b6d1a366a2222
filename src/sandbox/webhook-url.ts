/**
 * Which webhook URLs the sandbox accepts: HTTPS on a public host, as on the service.
 * Private, loopback, link-local and other non-public addresses are refused, as literals
 * and as what a hostname resolves to, so a webhook cannot be aimed into a private network.
 * With allowLocal (--allow-local-webhooks), http and loopback are accepted for `voicectl listen`.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export type Lookup = (host: string) => Promise<string[]>;

export interface UrlCheckOptions {
  allowLocal: boolean;
  /** Resolves a hostname to its addresses; default node:dns. */
  lookup?: Lookup;
  /** A hostname that does not resolve within this is accepted (deliveries to it just fail). */
  lookupTimeoutMs?: number;
}

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

const IPV4_BLOCKS: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'a "this network" address'],
  ['10.0.0.0', 8, 'a private-network address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private-network address'],
  ['192.0.0.0', 24, 'an IETF protocol address'],
  ['192.168.0.0', 16, 'a private-network address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function ipv4Problem(ip: string): string | undefined {
  const n = ipv4ToInt(ip);
  for (const [base, bits, what] of IPV4_BLOCKS) {
    const size = 2 ** (32 - bits);
    const start = ipv4ToInt(base);
    if (n >= start && n < start + size) return what;
  }
  return undefined;
}

/** Eight 16-bit groups of an IPv6 address (with an embedded dotted quad expanded). */
export function ipv6Groups(ip: string): number[] | undefined {
  let s = ip.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (quad) {
    const n = ipv4ToInt(quad[1]!);
    s = `${s.slice(0, quad.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<string>(Math.max(0, fill)).fill('0'), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

function ipv6Problem(ip: string): string | undefined {
  const g = ipv6Groups(ip);
  if (!g) return 'an unparseable IPv6 address';
  const embedded = (hi: number, lo: number) => `${hi >>> 8}.${hi & 255}.${lo >>> 8}.${lo & 255}`;
  if (g.every((x) => x === 0)) return 'the unspecified address';
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return 'a loopback address';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return ipv4Problem(embedded(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4Problem(embedded(g[6]!, g[7]!));
  if (g[0] === 0x2002) return ipv4Problem(embedded(g[1]!, g[2]!));
  if ((g[0]! & 0xfe00) === 0xfc00) return 'a private-network (unique local) address';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g[0]! & 0xffc0) === 0xfec0) return 'a site-local address';
  if ((g[0]! & 0xff00) === 0xff00) return 'a multicast address';
  return undefined;
}

/** Why an IP address is not a public one, or undefined when it is. */
export function addressProblem(ip: string): string | undefined {
  const v = isIP(ip);
  if (v === 4) return ipv4Problem(ip);
  if (v === 6) return ipv6Problem(ip);
  return 'not an IP address';
}

function isLoopback(ip: string): boolean {
  return addressProblem(ip) === 'a loopback address';
}

const defaultLookup: Lookup = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

async function resolve(host: string, lookup: Lookup, timeoutMs: number): Promise<string[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((r) => {
    timer = setTimeout(() => r(undefined), timeoutMs);
  });
  try {
    return await Promise.race([lookup(host).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function checkWebhookUrl(raw: string, opts: UrlCheckOptions): Promise<UrlCheck> {
  if (raw.length > 2048) return { ok: false, reason: 'url is longer than 2048 characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `url "${raw}" is not an absolute URL` };
  }
  const local = opts.allowLocal ? ' or http' : '';
  if (url.protocol !== 'https:' && !(opts.allowLocal && url.protocol === 'http:')) {
    return { ok: false, reason: `url must use https${local}, not ${url.protocol.replace(/:$/, '')}` };
  }
  if (url.username || url.password) return { ok: false, reason: 'url must not contain a user name or password' };
  // URL() already normalizes tricks such as http://0x7f.1/ or http://2130706433/ to 127.0.0.1.
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  const allowed = (ip: string) => opts.allowLocal && isLoopback(ip);
  const localHint = opts.allowLocal ? '' : ' (start the sandbox with --allow-local-webhooks to deliver to your own machine)';
  if (isIP(host)) {
    const problem = addressProblem(host);
    if (problem && !allowed(host)) return { ok: false, reason: `url host ${host} is ${problem}; webhooks go to public hosts only${localHint}` };
    return { ok: true, url: url.href };
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (opts.allowLocal) return { ok: true, url: url.href };
    return { ok: false, reason: `url host ${host} is this machine; webhooks go to public hosts only${localHint}` };
  }
  if (!host.includes('.')) return { ok: false, reason: `url host "${host}" is not a public domain name` };
  const addresses = await resolve(host, opts.lookup ?? defaultLookup, opts.lookupTimeoutMs ?? 3000);
  for (const ip of addresses ?? []) {
    const problem = addressProblem(ip);
    if (problem && !allowed(ip)) return { ok: false, reason: `url host ${host} resolves to ${ip}, ${problem}; webhooks go to public hosts only${localHint}` };
  }
  return { ok: true, url: url.href };
}
