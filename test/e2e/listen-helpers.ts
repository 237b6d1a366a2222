/**
 * `voicectl listen` as a child process of the built binary: started on a given (or free)
 * port, ready once it prints its address, stopped with SIGINT like Ctrl-C.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { execa, type ResultPromise } from 'execa';
import { BIN } from '../helpers/cli.js';
import { waitFor } from '../helpers/given.js';

export interface ListenProcess {
  port: number;
  stdout(): string;
  stderr(): string;
  /** SIGINT, then the exit code. */
  stop(): Promise<number>;
}

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export async function spawnListen(args: string[], env: Record<string, string>): Promise<ListenProcess> {
  const child: ResultPromise = execa(process.execPath, [BIN, 'listen', ...args], { reject: false, extendEnv: false, env, timeout: 60_000 });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
  const ready = new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      // The banner ends with the Ctrl-C line: wait for all of it.
      const m = /Listening for webhook events on http:\/\/[^/]+:(\d+)\//.exec(err);
      if (m && err.includes('Ctrl-C to stop')) resolve(Number(m[1]));
    });
    void child.then((r) => reject(new Error(`listen exited ${r.exitCode} before it was ready:\n${err}`)));
  });
  const port = await ready;
  return {
    port,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      child.kill('SIGINT');
      const r = await child;
      return r.exitCode ?? -1;
    },
  };
}

/** Polls until `check` returns a value (up to `ms`). */
export const eventually = <T>(check: () => T | undefined, ms = 20_000): Promise<T> => waitFor(check, ms);

export function readLog(file: string): Array<Record<string, any>> {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
}
