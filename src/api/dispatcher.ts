/**
 * The one undici dispatcher of a run: keep-alive connections, a connect timeout, and
 * the corporate proxy from HTTPS_PROXY / HTTP_PROXY / NO_PROXY when one is set.
 */
import { Agent, EnvHttpProxyAgent, type Dispatcher } from './undici.js';

export function makeDispatcher(env: Record<string, string | undefined>, timeoutMs: number): Dispatcher {
  const connect = { timeout: timeoutMs };
  const common = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 32, connect };
  // Lower case first, as curl and undici read them.
  const httpProxy = nonEmpty(env.http_proxy) ?? nonEmpty(env.HTTP_PROXY);
  const httpsProxy = nonEmpty(env.https_proxy) ?? nonEmpty(env.HTTPS_PROXY);
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

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}
