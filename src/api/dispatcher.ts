/**
 * The one undici dispatcher of a run: keep-alive connections, a connect timeout, and
 * the corporate proxy from HTTPS_PROXY / HTTP_PROXY / NO_PROXY when one is set.
 */
import { UsageError } from '../errors.js';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from './undici.js';

/** A bad proxy setting is the user's to fix (exit 2), named by its variable. */
export function makeDispatcher(env: Record<string, string | undefined>, timeoutMs: number): Dispatcher {
  const connect = { timeout: timeoutMs };
  const common = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 32, connect, maxHeaderSize: nodeMaxHeaderSize() };
  // Lower case first, as curl and undici read them.
  const httpProxy = proxySetting(env, 'http_proxy') ?? proxySetting(env, 'HTTP_PROXY');
  const httpsProxy = proxySetting(env, 'https_proxy') ?? proxySetting(env, 'HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return new Agent(common);
  return new EnvHttpProxyAgent({
    ...common,
    // Passed explicitly (never undefined) so undici does not fall back to process.env:
    // the context's environment is the only one that counts.
    httpProxy: httpProxy ?? '',
    httpsProxy: httpsProxy ?? httpProxy ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
    // Plain http goes to the proxy as an absolute-URI request, as corporate proxies
    // expect (many allow CONNECT to port 443 only); https is always tunnelled.
    proxyTunnel: false,
    proxyTls: { timeout: timeoutMs },
  });
}

/**
 * Node's limit on the size of response headers (http.maxHeaderSize), given to undici so
 * it need not load node:http to read it (see scripts/build.js). When Node was started
 * with --max-http-header-size, undici reads the option from node:http itself.
 */
export function nodeMaxHeaderSize(argv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS): number | undefined {
  return `${argv.join(' ')} ${nodeOptions ?? ''}`.includes('--max-http-header-size') ? undefined : 16 * 1024;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

const PROXY_SCHEMES = ['http:', 'https:', 'socks5:', 'socks:'];

/**
 * A proxy variable's value as a URL undici can use, or undefined when it is unset. A
 * value without a scheme (`proxy.corp:3128`) means http://, as curl reads it.
 */
export function proxyUrl(value: string): URL | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  try {
    const u = new URL(withScheme);
    return PROXY_SCHEMES.includes(u.protocol) && u.hostname !== '' ? u : undefined;
  } catch {
    return undefined;
  }
}

function proxySetting(env: Record<string, string | undefined>, variable: string): string | undefined {
  const value = nonEmpty(env[variable]);
  if (value === undefined) return undefined;
  const u = proxyUrl(value);
  if (u) return u.href;
  // The value is shown only when it cannot hold a password.
  const shown = value.includes('@') ? '' : ` "${value}"`;
  throw new UsageError(`${variable}${shown} is not a proxy address voicectl can use.`, {
    hint: `Set it to the proxy's URL, such as http://proxy.example.com:3128 (http, https or socks5; user:password@ before the host if the proxy asks for credentials), or unset ${variable}.`,
  });
}

/** The proxy a request to `url` goes through, for messages: where it is, never its credentials. */
export interface ProxyInUse {
  /** host:port of the proxy. */
  where: string;
  /** The environment variable it came from. */
  variable: string;
  /** The proxy URL carries a user name or password. */
  credentials: boolean;
}

/**
 * Which proxy, if any, a request to `url` goes through: the one undici's EnvHttpProxyAgent
 * picks, by scheme and NO_PROXY (comma- or space-separated host names, `host:port`, a
 * leading `.` or `*.` stripped, subdomains included, `*` alone for all).
 */
export function proxyFor(env: Record<string, string | undefined>, url: string): ProxyInUse | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const candidates = target.protocol === 'https:'
    ? [['https_proxy', env.https_proxy], ['HTTPS_PROXY', env.HTTPS_PROXY], ['http_proxy', env.http_proxy], ['HTTP_PROXY', env.HTTP_PROXY]]
    : [['http_proxy', env.http_proxy], ['HTTP_PROXY', env.HTTP_PROXY]];
  const found = candidates.find(([, v]) => nonEmpty(v) !== undefined);
  if (!found || bypassed(env.no_proxy ?? env.NO_PROXY ?? '', target)) return undefined;
  const [variable, value] = found as [string, string];
  const p = proxyUrl(value.trim());
  return p
    ? { where: p.host, variable, credentials: p.username !== '' || p.password !== '' }
    : { where: 'set in the environment', variable, credentials: false };
}

/** undici's own NO_PROXY rule (#shouldProxy), so a message names the proxy exactly when one was used. */
function bypassed(noProxy: string, target: URL): boolean {
  const host = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(target.port, 10) || (target.protocol === 'https:' ? 443 : 80);
  if (noProxy === '*') return true;
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed ? parsed[1] : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number.parseInt(parsed[2], 10) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}
