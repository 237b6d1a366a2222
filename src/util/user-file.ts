/**
 * The one way voicectl reads a file a person named on the command line (`--input`, `-F
 * name=@FILE`, `--rules`, `--secret-file`, `--file`, `--contacts`, `--data`, `--log`, …),
 * without ever blocking the process on it:
 *
 * - the path is opened with O_NONBLOCK, so a FIFO (named pipe) never holds the open;
 * - a regular file is read as usual;
 * - a FIFO that a program is writing to (`--input <(jq … )`, `mkfifo` plus a writer) is read
 *   as a stream through the event loop, so Ctrl-C (an aborted `signal`) stops it at once;
 * - a FIFO that nothing writes to is refused after a short grace (a writer blocked in its
 *   own open needs a moment to arrive), never waited on;
 * - anything else (a device, a socket) is refused: it has no end, or no content;
 * - `-` is standard input, when the caller passes it.
 *
 * Refusals are `UserFileError`s whose message is the reason in words; each caller wraps it
 * in its own usage error (exit 2), naming its flag.
 */
import { close, constants, createReadStream, fstat, open, read, readFile, type Stats } from 'node:fs';
import { Readable } from 'node:stream';
import { Socket } from 'node:net';
import { promisify } from 'node:util';

export type UserFileProblem = 'no_writer' | 'not_a_file' | 'too_big';

export class UserFileError extends Error {
  constructor(readonly path: string, readonly problem: UserFileProblem, reason: string) {
    super(reason);
    this.name = 'UserFileError';
  }
}

export interface UserFileOptions {
  /** Stops the read (Ctrl-C): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The most bytes read before giving up with a `too_big` refusal. */
  maxBytes?: number;
  /** What `-` reads; without it `-` is a file named "-". */
  stdin?: NodeJS.ReadableStream;
}

/** How long a FIFO may go without a writer before it is refused. */
const WRITER_GRACE_MS = 300;
const WRITER_POLL_MS = 10;
const CHUNK = 64 * 1024;
/** Nothing a person names on the command line is meant to be larger than this unless its reader says otherwise. */
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

const openFd = promisify(open);
const fstatFd = promisify(fstat);
const closeFd = promisify(close);
const readWhole = promisify(readFile) as (fd: number) => Promise<Buffer>;

/** The file's bytes. */
export async function readUserFile(path: string, options: UserFileOptions = {}): Promise<Buffer> {
  const max = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (path === '-' && options.stdin) return collect(options.stdin, path, max, options.signal);
  const fd = await openFd(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let handedOver = false;
  try {
    const st = await fstatFd(fd);
    if (st.isFile()) {
      if (st.size > max) throw tooBig(path, max);
      return await readWhole(fd);
    }
    if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR', errno: -21, syscall: 'read', path });
    if (!st.isFIFO()) throw new UserFileError(path, 'not_a_file', `it is ${kindOf(st)}, not a regular file`);
    handedOver = true;
    return await readFifo(fd, path, max, options.signal);
  } finally {
    if (!handedOver) await closeFd(fd).catch(() => {});
  }
}

/** The file's text (UTF-8). */
export async function readUserText(path: string, options: UserFileOptions = {}): Promise<string> {
  return (await readUserFile(path, options)).toString('utf8');
}

/**
 * readUserText for a caller that refuses an unreadable file with its own words: `refuse`
 * gets userFileReason's and returns the error to throw (a usage error naming the flag). A
 * read stopped through `options.signal` (Ctrl-C) rejects with the signal's reason instead.
 */
export async function readUserTextOr(path: string, options: UserFileOptions, refuse: (reason: string) => Error): Promise<string> {
  try {
    return await readUserText(path, options);
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw refuse(userFileReason(err));
  }
}

/** "no such file", "it is a folder", the refusal's own words, or the error's message: for a caller's "Cannot read X: …". */
export function userFileReason(err: unknown): string {
  if (err instanceof UserFileError) return err.message;
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'ENOENT': return 'no such file';
    case 'EISDIR': return 'it is a directory';
    case 'EACCES': return 'permission denied';
    case 'ENOTDIR': return 'a part of the path is a file, not a folder';
    default: return e instanceof Error ? e.message : String(err);
  }
}

/**
 * A FIFO opened without blocking: read what is there; a read that ends (0 bytes) before any
 * writer was seen means none is connected, which is given a moment to change. `open` says
 * whether a writer is still connected (a read would block): the rest comes through the
 * event loop.
 */
async function probeFifo(fd: number, path: string, max: number, signal?: AbortSignal): Promise<{ chunks: Buffer[]; total: number; open: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  let writerSeen = false;
  const giveUpAt = Date.now() + WRITER_GRACE_MS;
  for (;;) {
    signal?.throwIfAborted();
    const buf = Buffer.allocUnsafe(CHUNK);
    let n: number;
    try {
      n = await readOnce(fd, buf);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return { chunks, total, open: true };
      throw err;
    }
    if (n > 0) {
      writerSeen = true;
      total += n;
      if (total > max) throw tooBig(path, max);
      chunks.push(buf.subarray(0, n));
      continue;
    }
    if (writerSeen) return { chunks, total, open: false };
    if (Date.now() >= giveUpAt) {
      throw new UserFileError(path, 'no_writer', 'it is a named pipe (FIFO) that no program is writing to; start the writer first, or pass a regular file');
    }
    await pause(WRITER_POLL_MS, signal);
  }
}

async function readFifo(fd: number, path: string, max: number, signal?: AbortSignal): Promise<Buffer> {
  let probed;
  try {
    probed = await probeFifo(fd, path, max, signal);
  } catch (err) {
    await closeFd(fd).catch(() => {});
    throw err;
  }
  const { chunks } = probed;
  let total = probed.total;
  if (!probed.open) {
    await closeFd(fd).catch(() => {});
    return Buffer.concat(chunks);
  }
  // A writer is connected: the Socket takes the descriptor (and closes it).
  const socket = new Socket({ fd, readable: true, writable: false });
  return new Promise<Buffer>((resolve, reject) => {
    const finish = (err?: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (err) reject(err);
      else resolve(Buffer.concat(chunks));
    };
    const onAbort = () => finish(signal?.reason ?? new Error('aborted'));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > max) return finish(tooBig(path, max));
      chunks.push(chunk);
    });
    socket.once('end', () => finish());
    socket.once('error', (err) => finish(err));
  });
}

/**
 * The file as a stream of bytes, for files read line by line (event logs) that may be
 * larger than is wise to hold: a regular file as createReadStream reads it, a FIFO with a
 * writer through the event loop; refusals as readUserFile's. No size limit.
 */
export async function openUserStream(path: string, options: Omit<UserFileOptions, 'maxBytes' | 'stdin'> = {}): Promise<Readable> {
  const { signal } = options;
  const fd = await openFd(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await fstatFd(fd);
    if (st.isFile()) return createReadStream('', { fd, signal });
    if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR', errno: -21, syscall: 'read', path });
    if (!st.isFIFO()) throw new UserFileError(path, 'not_a_file', `it is ${kindOf(st)}, not a regular file`);
  } catch (err) {
    await closeFd(fd).catch(() => {});
    throw err;
  }
  let probed;
  try {
    probed = await probeFifo(fd, path, Infinity, signal);
  } catch (err) {
    await closeFd(fd).catch(() => {});
    throw err;
  }
  if (!probed.open) await closeFd(fd).catch(() => {});
  const socket = probed.open ? new Socket({ fd, readable: true, writable: false }) : undefined;
  const head = probed.chunks;
  const out = Readable.from((async function* () {
    yield* head;
    if (socket) for await (const chunk of socket) yield chunk as Buffer;
  })());
  const onAbort = () => {
    socket?.destroy();
    out.destroy(signal?.reason as Error);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  out.once('close', () => {
    signal?.removeEventListener('abort', onAbort);
    socket?.destroy();
  });
  return out;
}

function readOnce(fd: number, buf: Buffer): Promise<number> {
  return new Promise((resolve, reject) => read(fd, buf, 0, buf.length, null, (err, n) => (err ? reject(err) : resolve(n))));
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function collect(stream: NodeJS.ReadableStream, path: string, max: number, signal?: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const reading = (async () => {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += b.length;
      if (total > max) throw tooBig(path === '-' ? 'standard input' : path, max);
      chunks.push(b);
    }
    return Buffer.concat(chunks);
  })();
  if (!signal) return reading;
  signal.throwIfAborted();
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([reading, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function tooBig(path: string, max: number): UserFileError {
  return new UserFileError(path, 'too_big', `it is larger than ${Math.round(max / (1024 * 1024))} MB, more than voicectl reads from such a file`);
}

function kindOf(st: Stats): string {
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}
