/**
 * What bin/voicectl.js runs. Built as CommonJS (dist/start.cjs), because Node starts a
 * CommonJS file faster than an ES module: `--version` is answered here, help from
 * dist/help.cjs (the program definition with the verbs left out), and every other command
 * line from dist/main.cjs, the whole program as one CommonJS file.
 *
 * Compiling is most of what starting costs, so both files are compiled from V8's code
 * cache (src/code-cache.ts): the build's, or one this Node wrote after its first run.
 */
import { join } from 'node:path';
import { asksForHelp } from './argv.js';
import { fdWriter } from './io/fd-write.js';
import type * as CodeCache from './code-cache.js';
import type * as Help from './help.js';
import type * as Main from './main.js';
import type * as WasmBaseline from './wasm-baseline.js';

declare const __VOICECTL_VERSION__: string;

export function start(argv: string[]): void {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    fdWriter(1, () => process.stdout).write(`${__VOICECTL_VERSION__}\n`);
    return;
  }
  void (async () => {
    let code: number | undefined;
    const ran: Array<() => void> = [];
    if (asksForHelp(argv)) code = await compiled<typeof Help>(HELP_FILE, ran).help(argv);
    if (code === undefined) {
      preferBaselineWasm();
      code = await compiled<typeof Main>(MAIN_FILE, ran).main(argv);
    }
    process.exitCode = code;
    for (const after of ran) after();
  })().catch((err: unknown) => {
    // main() reports its own errors; this is the start path itself failing (a broken install).
    process.stderr.write(`error: voicectl could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    const debug = argv.includes('--debug') || process.env.VOICECTL_DEBUG === '1';
    if (debug && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    else process.stderr.write('Run again with --debug for details; reinstalling voicectl (npm install) rebuilds dist/.\n');
    process.exitCode = 1;
  });
}

export { WRAPPER_HEAD, WRAPPER_TAIL } from './module-wrapper.js';
export const HELP_FILE = join(__dirname, 'help.cjs');
export const MAIN_FILE = join(__dirname, 'main.cjs');
// Required where used, not at the top: `--version` needs neither (nor node:vm, os and v8).
const codeCache = () => require('./code-cache.js') as typeof CodeCache;
export const load: typeof CodeCache.load = (file, options) => codeCache().load(file, options);
export const buildCacheFile: typeof CodeCache.buildCacheFile = (file, v8) => codeCache().buildCacheFile(file, v8);
export const preferBaselineWasm = () => (require('./wasm-baseline.js') as typeof WasmBaseline).preferBaselineWasm();

/** A built CommonJS file's exports, compiled from a code cache (src/code-cache.ts). */
function compiled<T>(file: string, ran: Array<() => void>): T {
  // Node 22.1 and later keep the compiled code of the ES modules the program imports
  // (packages such as conf and ora) between runs. Node 20 has no such cache, and loading
  // node:module there to find that out loads parts of the ES module loader (a few ms).
  if (Number(process.versions.node.split('.')[0]) >= 22) (require('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const loaded = load<T>(file);
  ran.push(() => loaded.save());
  return loaded.exports;
}

/** dist/help.cjs with the build's cache only (tests use it). */
export const loadHelp = () => load<typeof Help>(HELP_FILE, { userCache: false });
