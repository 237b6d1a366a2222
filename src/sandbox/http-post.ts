/**
 * The emulator's own HTTP client, for its webhook deliveries: node:http and node:https,
 * never the client's undici stack (src/api/), so a bug in voicectl's HTTP layer cannot
 * hide in the service it is tested against too.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export interface PostOptions {
  headers: OutgoingHttpHeaders;
  body: string;
  signal: AbortSignal;
  /** How the host name is resolved (the deliveries refuse private addresses there). */
  lookup: LookupFunction;
  /** The answer's body is read up to this many bytes, then the connection is dropped. */
  readLimit: number;
}

/**
 * Kept-alive connections, one pool per scheme, closed with the sandbox. An idle connection
 * is closed after 4 s (sooner if the receiver's Keep-Alive says so), before a receiver with
 * Node's default 5 s closes it under a delivery on its way.
 */
const IDLE_MS = 4_000;

export class PostClient {
  private readonly http = new HttpAgent({ keepAlive: true, timeout: IDLE_MS });
  private readonly https = new HttpsAgent({ keepAlive: true, timeout: IDLE_MS });

  /** POSTs the body and resolves with the answer's status once its body is read (or the limit reached). */
  post(url: string, options: PostOptions): Promise<number> {
    const u = new URL(url);
    const secure = u.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    return new Promise<number>((resolve, reject) => {
      const req = send(u, {
        method: 'POST',
        agent: secure ? this.https : this.http,
        lookup: options.lookup,
        signal: options.signal,
        headers: { ...options.headers, 'content-length': Buffer.byteLength(options.body) },
      }, (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > options.readLimit) {
            res.destroy();
            resolve(status);
          }
        });
        res.on('end', () => resolve(status));
        res.on('error', reject);
        res.on('close', () => {
          if (!res.complete) reject(new Error('the connection closed before the answer ended'));
        });
      });
      req.on('error', reject);
      req.end(options.body);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
