/**
 * The one undici dispatcher of a run: keep-alive connections, a connect timeout, and
 * the corporate proxy from HTTPS_PROXY / HTTP_PROXY / NO_PROXY when one is set.
 */
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';

export function makeDispatcher(env: Record<string, string | undefined>, timeoutMs: number): Dispatcher {
  const connect = { timeout: Math.min(timeoutMs, 15_000) };
  const common = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 32, connect };
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  if (httpProxy || httpsProxy) {
    return new EnvHttpProxyAgent({
      ...common,
      httpProxy,
      httpsProxy: httpsProxy ?? httpProxy,
      noProxy: env.NO_PROXY ?? env.no_proxy,
    });
  }
  return new Agent(common);
}
