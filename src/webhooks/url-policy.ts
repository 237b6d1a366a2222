/**
 * The service delivers only to HTTPS URLs on public hosts (spec section 4). Checking
 * here, before any request, turns a round trip and a terse 400 into a reason the user
 * can act on. Names are not resolved: a public name that points at a private address
 * is for the server to refuse.
 */
import { isIP } from 'node:net';
import { isLoopbackHost } from '../util/sandbox-clock.js';

export type UrlProblem = { ok: true; url: URL } | { ok: false; reason: string; hint?: string };

export function checkWebhookUrl(raw: string): UrlProblem {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `"${raw}" is not a URL.`, hint: 'Give a full address, for example https://hooks.example.com/voice.' };
  }
  if (url.protocol !== 'https:') {
    return {
      ok: false,
      reason: `${url.protocol === 'http:' ? 'plain HTTP' : `the ${url.protocol.replace(/:$/, '')} scheme`} is not accepted: the service delivers only to HTTPS URLs.`,
      hint: url.protocol === 'http:' ? `Use https://${url.host}${url.pathname}, or a tunnel that gives you an HTTPS address.` : undefined,
    };
  }
  const why = privateHostReason(url.hostname);
  if (why) {
    return {
      ok: false,
      reason: `${url.hostname} is ${why}: the service delivers only to public hosts.`,
      hint: 'To receive events on this machine, run `voicectl listen` and expose it with a tunnel (cloudflared, ngrok) that gives a public HTTPS URL.',
    };
  }
  return { ok: true, url };
}

/** Why a host is not public, or undefined when it looks public. */
function privateHostReason(hostname: string): string | undefined {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === '') return 'empty';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'this machine (localhost)';
  const kind = isIP(host);
  if (kind === 4) return ipv4Reason(host);
  if (kind === 6) return ipv6Reason(host);
  if (!host.includes('.')) return 'a single-label name that only resolves on a local network';
  for (const suffix of ['.local', '.internal', '.lan', '.home.arpa', '.intranet', '.corp']) {
    if (host.endsWith(suffix)) return `a local-network name (${suffix})`;
  }
  return undefined;
}

function ipv4Reason(ip: string): string | undefined {
  const [a, b] = ip.split('.').map(Number) as [number, number, number, number];
  if (a === 127) return 'a loopback address (this machine)';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'a private-network address';
  if (a === 169 && b === 254) return 'a link-local address';
  if (a === 100 && b >= 64 && b <= 127) return 'a carrier-grade NAT address';
  if (a === 0) return 'an unspecified address';
  if (a >= 224) return 'a multicast or reserved address';
  return undefined;
}

function ipv6Reason(ip: string): string | undefined {
  if (ip === '::1') return 'a loopback address (this machine)';
  if (ip === '::') return 'an unspecified address';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return ipv4Reason(mapped[1]!);
  // The URL parser writes IPv4-mapped addresses in hex (::ffff:7f00:1).
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1]!, 16);
    const lo = parseInt(hexMapped[2]!, 16);
    return ipv4Reason(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  const first = parseInt(ip.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return 'a private-network (unique local) address';
  if ((first & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((first & 0xff00) === 0xff00) return 'a multicast address';
  return undefined;
}

/** A base URL on this machine: a sandbox, as far as the CLI can tell. */
export function isLoopbackUrl(raw: string | undefined): boolean {
  if (!raw) return false;
  try {
    return isLoopbackHost(new URL(raw).hostname);
  } catch {
    return false;
  }
}

/**
 * Whether the CLI talks to `voicectl sandbox` (or `demo`'s): a base URL on this machine
 * and a key the sandbox made (`sk_sandbox_…`). Both, because either alone is something a
 * real account can have (a tunnel to the service on localhost; a key named anything):
 * only then does a launch skip the warning of real calls that use the account balance.
 */
export function isSandboxTarget(settings: { baseUrl?: string; apiKey?: string }): boolean {
  return isLoopbackUrl(settings.baseUrl) && typeof settings.apiKey === 'string' && settings.apiKey.startsWith('sk_sandbox_');
}
