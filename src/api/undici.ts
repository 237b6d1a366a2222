/**
 * The parts of undici voicectl uses: the Agent, the proxy agent, request() and connect()
 * (the proxy agent's tunnels). They are imported from their own files because undici's
 * index loads everything else too (fetch, WebSocket, mock agents, caches, SQLite): 173 ms
 * against 58 ms here, paid by every command that talks to the service. The build bundles these files into one chunk, so an
 * undici release that moves them fails the build, not a user's command.
 */
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import dispatcherRequest from 'undici/lib/api/api-request.js';
import dispatcherConnect from 'undici/lib/api/api-connect.js';
import DispatcherBase from 'undici/lib/dispatcher/dispatcher.js';
import { preferBaselineWasm } from '../wasm-baseline.js';

// The proxy agent opens its HTTPS tunnels with this[kClient].connect(): a method undici's
// index installs on every dispatcher, and which the index, left out here, no longer does.
// Without it no request to an https:// address can go through a proxy.
DispatcherBase.prototype.connect ??= dispatcherConnect;

// Before undici compiles llhttp, on its first connection (see the module).
preferBaselineWasm();

export { Agent, EnvHttpProxyAgent };
export type { Dispatcher };

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method: Dispatcher.HttpMethod;
  dispatcher: Dispatcher;
};

/** undici's request(url, options), always with an explicit dispatcher and method. */
export function request(url: string | URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = typeof url === 'string' ? new URL(url) : url;
  const { dispatcher, ...rest } = options;
  return dispatcherRequest.call(dispatcher, { ...rest, origin: u.origin, path: `${u.pathname}${u.search}` });
}
