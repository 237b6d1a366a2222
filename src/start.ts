/**
 * What bin/voicectl.js runs. Built as CommonJS (dist/start.cjs), because Node starts a
 * CommonJS file faster than an ES module: `--version` and help are answered here, from
 * CommonJS only (dist/help.cjs), and every other command line loads the ES module build
 * (dist/main.js) and runs there.
 *
 * dist/help.cjs is compiled with V8's code cache (dist/help.cjs.cache, written by the
 * build), as Node 22's module.enableCompileCache() would: compiling it is most of what
 * help costs. A cache that does not fit this Node is ignored and the file compiled as usual.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { asksForHelp } from './argv.js';
import { fdWriter } from './io/fd-write.js';
import type * as Help from './help.js';
import type * as Main from './main.js';

declare const __VOICECTL_VERSION__: string;

export function start(argv: string[]): void {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    fdWriter(1, () => process.stdout).write(`${__VOICECTL_VERSION__}\n`);
    return;
  }
  void (async () => {
    let code: number | undefined;
    if (asksForHelp(argv)) code = await helpBundle().help(argv);
    if (code === undefined) {
      // Node 22.1 and later keep V8's compiled code of ES modules between runs (in the
      // system's temporary folder, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1
      // turns it off). Node 20 has no such cache: a no-op there.
      (require('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();
      const { main } = (await import('./main.js')) as typeof Main;
      code = await main(argv);
    }
    process.exitCode = code;
  })().catch((err: unknown) => {
    // main() reports its own errors; this is the start path itself failing (a broken install).
    process.stderr.write(`error: voicectl could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    const debug = argv.includes('--debug') || process.env.VOICECTL_DEBUG === '1';
    if (debug && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    else process.stderr.write('Run again with --debug for details; reinstalling voicectl (npm install) rebuilds dist/.\n');
    process.exitCode = 1;
  });
}

export const HELP_FILE = join(__dirname, 'help.cjs');

/**
 * Node 22.1 and later have their own compile cache, kept per Node version and V8 flags
 * (in the system's temporary folder): help uses it there, so a build made on one Node
 * version starts as fast on another. Node 20 has none: the build's own cache serves it.
 */
function helpBundle(): typeof Help {
  const mod = require('node:module') as { enableCompileCache?: () => unknown };
  if (typeof mod.enableCompileCache === 'function') {
    mod.enableCompileCache();
    return require(HELP_FILE) as typeof Help;
  }
  return loadHelp().exports;
}
export const HELP_CACHE = `${HELP_FILE}.cache`;

/**
 * Loads dist/help.cjs as require() would, compiled with the code cache when it fits.
 * Returns the script too, so the build can write the cache after a warm-up.
 */
export function loadHelp(): { exports: typeof Help; script: Script; cacheRejected: boolean | undefined } {
  const source = readFileSync(HELP_FILE, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(HELP_CACHE);
  } catch {
    // no cache (a build without one, or removed): compile as usual
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: HELP_FILE, cachedData });
  const module = { exports: {} as typeof Help };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, HELP_FILE, __dirname);
  return { exports: module.exports, script, cacheRejected: cachedData ? script.cachedDataRejected : undefined };
}
