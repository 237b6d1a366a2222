/** Streams for running a command in process: what it wrote to stdout and stderr, as text. */
import { PassThrough } from 'node:stream';

export function fakeIo() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => { out += d.toString(); });
  stderr.on('data', (d: Buffer) => { err += d.toString(); });
  return { io: { stdin, stdout, stderr }, out: () => out, err: () => err };
}
