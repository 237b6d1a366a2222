/**
 * The parts of undici voicectl uses: the Agent, the proxy agent and request(). They are
 * imported from their own files because undici's index loads everything else too (fetch,
 * WebSocket, mock agents, caches, SQLite): 173 ms against 58 ms here, paid by every
 * command that talks to the service. The build bundles these files into one chunk, so an
 * undici release that moves them fails the build, not a user's command.
 */
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import dispatcherRequest from 'undici/lib/api/api-request.js';

/**
 * undici parses HTTP with llhttp compiled to WebAssembly, which V8 compiles twice: at once
 * with its baseline compiler (Liftoff), then again optimized (TurboFan) on a background
 * thread, and Node does not exit before that second compile ends. That added 150–250 ms
 * to every short command here (`voice list`: 0.61 s against 0.36 s). Baseline code parses
 * the responses voicectl reads well enough (see the export figures in the README), so
 * V8 is asked for that alone. Set before undici compiles llhttp, on its first connection,
 * and only on the V8 versions of the Node releases voicectl supports (20, 22, 24: V8 11 to
 * 13), which have the flag: V8 prints an error for a flag it does not know.
 */
const v8Major = Number(process.versions.v8.split('.')[0]);
if (v8Major >= 11 && v8Major <= 13) setFlagsFromString('--liftoff-only');

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
