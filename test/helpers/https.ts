/**
 * HTTPS on loopback for tests: a server with a certificate for 127.0.0.1 and localhost,
 * issued by a test authority (test/helpers/tls/, valid 2000-2100, made with openssl; the
 * authority's key was thrown away). voicectl trusts it the way users trust a corporate
 * authority: NODE_EXTRA_CA_CERTS=<TEST_CA> in the child's environment.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { fileURLToPath } from 'node:url';
import { listenOnLoopback, type Listening } from './loopback.js';

export const TEST_CA = fileURLToPath(new URL('./tls/ca.pem', import.meta.url));
const KEY = fileURLToPath(new URL('./tls/server-key.pem', import.meta.url));
const CERT = fileURLToPath(new URL('./tls/server.pem', import.meta.url));

export type HttpsListening = Listening;

export function httpsServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<HttpsListening> {
  return listenOnLoopback(createServer({ key: readFileSync(KEY), cert: readFileSync(CERT) }, handler));
}

/** An HTTPS front for a plain-http server (the sandbox): every request is passed on as it came. */
export function httpsFront(target: string): Promise<HttpsListening> {
  const t = new URL(target);
  return httpsServer((req, res) => {
    const upstream = httpRequest({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers: { ...req.headers, host: t.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
}
