/**
 * jq 1.7.1, compiled to WebAssembly (the jq-wasm package), run as the `jq` program is:
 * its own main() with `-r -M PROGRAM`, the input on its standard input, its exit status.
 *
 * jq-wasm's own wrapper is not used: it feeds standard input one byte at a time and
 * copies the rest of the buffer for each (time grows with the square of the input), grows
 * its output buffer a byte at a time too, trims the output, drops the exit status and
 * gives jq a made-up environment. Here its Emscripten module is loaded with two small
 * edits (each must apply exactly once, so a jq-wasm release that changes them fails
 * loudly): the environment is the one given, and the file system is reachable, so
 * standard input, output and error become whole-buffer reads and writes.
 *
 * It runs on the calling thread until jq returns; src/io/jq-worker.ts runs it on a worker
 * thread that can be abandoned (Ctrl-C), src/io/filter.ts decides where.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { compileFunction } from 'node:vm';

export interface JqRun {
  program: string;
  /**
   * The input as JSON text, UTF-8: whole, or a function that gives the next piece
   * (waiting for it if need be), then null at the end.
   */
  input: Uint8Array | (() => Uint8Array | null);
  /** jq's $ENV and env. */
  env: Record<string, string | undefined>;
  /** jq's standard output, as jq writes it (in the pieces its buffer flushes). */
  stdout(chunk: Uint8Array): void;
  stderr(chunk: Uint8Array): void;
}

export interface JqResult {
  /** jq's exit status: 0, 2 (usage), 3 (compile error), 5 (runtime error), or halt_error's. */
  status: number;
  /** The WebAssembly memory ran out (jq-wasm's heap is at most 256 MiB). */
  outOfMemory?: boolean;
}

interface EmscriptenStream {
  stream_ops: Record<string, unknown>;
}

interface JqModule {
  callMain(args: string[]): number;
  FS: { getStream(fd: number): EmscriptenStream | undefined };
}

type Factory = (moduleArg: Record<string, unknown>) => Promise<JqModule>;

/** The edits to jq-wasm 1.0.1's dist/build/jq.js: [what, replacement]. */
const EDITS: Array<[string, string]> = [
  // The environment jq sees: the given one in place of Emscripten's made-up USER=web_user, HOME=/home/web_user.
  ['var ENV = {};', 'var ENV = Module["voicectlEnv"] || {};'],
  // The file system, to replace the byte-at-a-time standard streams.
  ['FS.staticInit();', 'FS.staticInit();Module["FS"]=FS;'],
];

/** Names Emscripten sets unless the environment says otherwise: left out when the user's has none. */
const EMSCRIPTEN_ENV = ['USER', 'LOGNAME', 'PATH', 'PWD', 'HOME', 'LANG', '_'];

/** The WebAssembly API, typed as far as used here (the project's TypeScript libraries leave it out). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
}
const WebAssemblyApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let loaded: { factory: Factory; wasm: object } | undefined;

/** Reads and compiles jq-wasm (once per thread): runJq does it when not done before. */
export function loadJq(): { factory: Factory; wasm: object } {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const file = require.resolve('jq-wasm/dist/build/jq.js');
  // ASCII: read as latin1, which costs no decoding.
  let code = readFileSync(file, 'latin1');
  for (const [from, to] of EDITS) {
    const count = code.split(from).length - 1;
    if (count !== 1) throw new Error(`${file}: expected one "${from}", found ${count}; jq-wasm changed, review src/io/jq-engine.ts`);
    code = code.replace(from, to);
  }
  // The WebAssembly is inside jq.js as base64: compiled once, instantiated for each run.
  const binary = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(code);
  if (!binary) throw new Error(`${file}: no WebAssembly found; jq-wasm changed, review src/io/jq-engine.ts`);
  const wasm = new WebAssemblyApi.Module(Buffer.from(binary[1]!, 'base64'));
  // instantiateWasm (below) hands Emscripten the compiled module: the 1.2 MB of base64 need not be compiled as JavaScript too.
  code = code.replace(binary[0], '""');
  const module = { exports: {} as unknown };
  const fn = compileFunction(code, ['module', 'exports', 'require', '__filename', '__dirname'], { filename: file });
  fn(module, module.exports, require, file, file.replace(/\/[^/]*$/, ''));
  loaded = { factory: module.exports as Factory, wasm };
  return loaded;
}

/**
 * Environment strings for Emscripten, which copies each character's code as one byte:
 * a UTF-8 value is handed over as its bytes, one character per byte.
 */
function wasmEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of EMSCRIPTEN_ENV) out[name] = undefined;
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || /[^\x20-\x7e]/.test(k) || k.includes('=')) continue;
    out[k] = Buffer.from(v, 'utf8').toString('latin1').replaceAll('\0', '');
  }
  return out;
}

function once(input: Uint8Array): () => Uint8Array | null {
  let given = false;
  return () => {
    if (given) return null;
    given = true;
    return input;
  };
}

/** Runs jq once; the module is made anew for each run (jq's main() is not made to run twice). */
export async function runJq(run: JqRun): Promise<JqResult> {
  const { factory, wasm } = loadJq();
  const jq = await factory({
    voicectlEnv: wasmEnv(run.env),
    instantiateWasm(imports: object, receive: (instance: object, module: object) => void) {
      const instance = new WebAssemblyApi.Instance(wasm, imports);
      receive(instance, wasm);
      return instance.exports;
    },
  });
  const streams = [0, 1, 2].map((fd) => jq.FS.getStream(fd));
  if (streams.some((s) => s === undefined)) throw new Error('jq-wasm has no standard streams');
  const [stdin, stdout, stderr] = streams as EmscriptenStream[];
  let offset = 0;
  const next = typeof run.input === 'function' ? run.input : once(run.input);
  let piece: Uint8Array | null = new Uint8Array(0);
  const view = (buffer: Int8Array, at: number, length: number) => new Uint8Array(buffer.buffer, buffer.byteOffset + at, length);
  stdin!.stream_ops = {
    ...stdin!.stream_ops,
    read: (_s: unknown, buffer: Int8Array, at: number, length: number) => {
      while (piece !== null && offset >= piece.length) {
        piece = next();
        offset = 0;
      }
      if (piece === null) return 0;
      const n = Math.min(length, piece.length - offset);
      view(buffer, at, n).set(piece.subarray(offset, offset + n));
      offset += n;
      return n;
    },
  };
  const writer = (sink: (chunk: Uint8Array) => void) => (_s: unknown, buffer: Int8Array, at: number, length: number) => {
    sink(view(buffer, at, length).slice());
    return length;
  };
  stdout!.stream_ops = { ...stdout!.stream_ops, write: writer(run.stdout) };
  let tail = '';
  stderr!.stream_ops = {
    ...stderr!.stream_ops,
    write: writer((chunk) => {
      tail = (tail + Buffer.from(chunk).toString('utf8')).slice(-200);
      run.stderr(chunk);
    }),
  };
  // Emscripten's exit() sets process.exitCode, and its abort() prints "Aborted()" with
  // console.error: the caller decides the process's exit code and what is said.
  const exitCode = process.exitCode;
  const consoleError = console.error;
  console.error = () => {};
  try {
    return { status: jq.callMain(['-r', '-M', run.program]) };
  } catch (err) {
    // abort(): after jq's own "cannot allocate memory" when its heap could not grow.
    if (tail.includes('cannot allocate memory') || err instanceof RangeError) return { status: 1, outOfMemory: true };
    throw err;
  } finally {
    console.error = consoleError;
    process.exitCode = exitCode;
  }
}
