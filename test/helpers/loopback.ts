/** A test's node:http (or node:https) server on a free loopback port, and a close that does not wait for keep-alive clients. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as TlsServer } from 'node:tls';

export interface Listening {
  /** http://127.0.0.1:PORT (https:// for a TLS server) */
  url: string;
  /** 127.0.0.1:PORT */
  host: string;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${server instanceof TlsServer ? 'https' : 'http'}://${host}`,
    host,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
