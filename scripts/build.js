// Builds dist/ for bin/voicectl.js: a CommonJS start path (dist/start.cjs, dist/help.cjs
// and its code cache) that answers --version and help, and an ESM bundle with code
// splitting (dist/main.js) for everything else, in which every verb, the sandbox and the
// heavy libraries load only when a command needs them.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { builtinModules, createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Bundled: commander and chalk (start path), and papaparse and libphonenumber-js, which
// the spreadsheet commands load as one chunk each instead of as many files from
// node_modules (papaparse through Node's CommonJS export scanner), and the parts of
// undici voicectl uses (src/api/undici.ts).
const bundled = new Set(['commander', '@commander-js/extra-typings', 'chalk', 'papaparse', 'libphonenumber-js', 'undici']);
// Optional dependencies (DuckDB, a native module) are never bundled: the verbs that need one
// import it when they run, and say how to install it when it is missing.
const external = [...Object.keys(pkg.dependencies).filter((d) => !bundled.has(d)), ...Object.keys(pkg.optionalDependencies ?? {})];

/**
 * commander requires node:child_process at load time, for executable subcommands that
 * voicectl never uses; loading it costs every start a few milliseconds. Inside the bundle
 * it resolves to a stand-in that loads the real module only if something touches it.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/commander/`) ? { path: 'lazy-child-process', namespace: 'voicectl' } : undefined);
    b.onLoad({ filter: /.*/, namespace: 'voicectl' }, () => ({
      loader: 'js',
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
    }));
  },
};

/**
 * voicectl speaks HTTP/1.1 only (allowH2 is never set), yet undici's client loads its
 * HTTP/2 client at start, and with it node:http2, tls and crypto: 10-15 ms of every
 * command that talks to the service. Inside the bundle the HTTP/2 client is a stand-in
 * that undici would call only after negotiating h2, which it never offers.
 */
const noHttp2 = {
  name: 'no-http2',
  setup(b) {
    b.onResolve({ filter: /\/client-h2\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/undici/`) ? { path: 'client-h2', namespace: 'voicectl-no-h2' } : undefined);
    b.onLoad({ filter: /.*/, namespace: 'voicectl-no-h2' }, () => ({
      loader: 'js',
      contents: "module.exports = function connectH2() { throw new Error('voicectl does not use HTTP/2 (allowH2 is off)'); };",
    }));
  },
};

/**
 * undici loads node:http (nine modules, about 4 ms of every command that reads from the
 * service) for two things voicectl's requests do not need at load time: IncomingMessage,
 * to recognise one when destroying a stream, and the default http.maxHeaderSize, read when
 * a client is made without one (src/api/dispatcher.ts passes it). Both are read lazily
 * instead. node:assert (four modules) is loaded only when an assertion fails. Each edit
 * must apply exactly once, so an undici release that changes these lines fails the build.
 */
const lazyUndiciBuiltins = {
  name: 'lazy-undici-builtins',
  setup(b) {
    const edits = {
      '/lib/core/util.js': [
        ["const { IncomingMessage } = require('node:http')\n", ''],
        [
          'Object.getPrototypeOf(stream).constructor === IncomingMessage',
          "Object.getPrototypeOf(stream).constructor.name === 'IncomingMessage' && Object.getPrototypeOf(stream).constructor === require('node:http').IncomingMessage",
        ],
      ],
      '/lib/dispatcher/client.js': [
        ["const http = require('node:http')\n", ''],
        [
          /const getDefaultNodeMaxHeaderSize = http &&[^]*?invalid'\) }\n/,
          "const getDefaultNodeMaxHeaderSize = () => {\n  const http = require('node:http')\n  if (Number.isInteger(http.maxHeaderSize) && http.maxHeaderSize > 0) return http.maxHeaderSize\n  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')\n}\n",
        ],
      ],
    };
    b.onLoad({ filter: /\/node_modules\/undici\/lib\/(core\/util|dispatcher\/client)\.js$/ }, (args) => {
      let code = readFileSync(args.path, 'utf8');
      const key = Object.keys(edits).find((k) => args.path.endsWith(k));
      for (const [from, to] of edits[key]) {
        const count = typeof from === 'string' ? code.split(from).length - 1 : (code.match(new RegExp(from, 'g')) ?? []).length;
        if (count !== 1) throw new Error(`${args.path}: expected one ${from}, found ${count}; undici changed, review lazyUndiciBuiltins`);
        code = code.replace(from, to);
      }
      return { contents: code, loader: 'js' };
    });
    b.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/undici/`) ? { path: 'lazy-assert', namespace: 'voicectl-assert' } : undefined);
    b.onLoad({ filter: /.*/, namespace: 'voicectl-assert' }, () => ({
      loader: 'js',
      // undici calls assert(value) only; anything else reaches the real module.
      contents: "function assert(value, message) { if (!value) require('node:assert')(value, message); }\n"
        + "module.exports = new Proxy(assert, { get: (target, key) => (key in target ? target[key] : require('node:assert')[key]) });",
    }));
  },
};

/** The version is known at build time: src/version.ts's package.json fallback is for running from source. */
const versionConstant = {
  name: 'version-constant',
  setup(b) {
    b.onResolve({ filter: /\/version\.js$/ }, (args) => (args.importer.includes('/src/') ? { path: 'version', namespace: 'voicectl-version' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'voicectl-version' }, () => ({
      loader: 'js',
      contents: `export function version() { return ${JSON.stringify(pkg.version)}; }`,
    }));
  },
};

const result = await build({
  metafile: true,
  // Stable entry points: the CLI, the `voicectl/webhooks` export, and the sandbox (benchmarks start it in process).
  entryPoints: Object.fromEntries(
    Object.entries({
      main: 'src/main.ts',
      'webhooks/signature': 'src/webhooks/signature.ts',
      'sandbox/index': 'src/sandbox/index.ts',
      // Worker threads are started from their own files (src/contacts/pool.ts, remote.ts).
      'contacts/phone-worker': 'src/contacts/phone-worker.ts',
      'contacts/engine-worker': 'src/contacts/engine-worker.ts',
      // --jq's filter runs on its own thread, which Ctrl-C can abandon (src/io/filter.ts).
      'io/jq-worker': 'src/io/jq-worker.ts',
      // The contacts module as `contacts validate` uses it, for scripts/differential.js.
      'contacts/index': 'src/contacts/index.ts',
    })
      .filter(([, file]) => existsSync(file)),
  ),
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  external,
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [lazyChildProcess, noHttp2, lazyUndiciBuiltins, versionConstant],
  define: { __VOICECTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  legalComments: 'none',
  // commander is CommonJS: its require() of node built-ins needs a real require in ESM.
  banner: { js: "import { createRequire as __voicectlRequire } from 'node:module'; const require = __voicectlRequire(import.meta.url);" },
});

/**
 * The start path, as CommonJS: Node starts a CommonJS file faster than an ES module.
 * dist/start.cjs answers `--version` and loads either dist/help.cjs (help, from the same
 * program definition as the ES build, with the verbs left out) or dist/main.js.
 */
const verbsLeftOut = {
  name: 'verbs-left-out',
  setup(b) {
    b.onResolve({ filter: /^\.\/main\.js$/ }, (args) => (args.importer.endsWith('/src/start.ts') ? { path: './main.js', external: true } : undefined));
    // Every lazy load (a verb, chalk, the API client) runs only after the hand-off to dist/main.js.
    b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'voicectl-left-out' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'voicectl-left-out' }, (args) => ({
      loader: 'js',
      contents: `throw new Error(${JSON.stringify(`${args.path} is not part of voicectl's start path`)});`,
    }));
  },
};
/** What every CommonJS file of dist/ is built as: one bundle for the Node versions voicectl supports. */
const CJS = { outdir: 'dist', outExtension: { '.js': '.cjs' }, bundle: true, format: 'cjs', platform: 'node', target: 'node20.18' };
await build({
  entryPoints: { start: 'src/start.ts', help: 'src/help.ts' },
  ...CJS,
  external: [...external, './help.cjs'],
  minifyWhitespace: true,
  plugins: [lazyChildProcess, versionConstant, verbsLeftOut],
  define: { __VOICECTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  legalComments: 'none',
});

/**
 * A package of many files that one part of voicectl needs, bundled into one file of its own
 * (dist/NAME.cjs), which dist/main.cjs loads when that part first runs, through the start
 * path's code cache like itself: the entry, imported by its neighbours ("./sdk.js") from a
 * file whose path matches `importer`, is that file. `options` is esbuild's options for it
 * (how much to minify, and plugins).
 */
async function packageFile(name, entry, importer, options) {
  await build({
    entryPoints: { [name]: entry },
    ...CJS,
    ...options,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const namespace = `voicectl-${name}`;
  // The entry as its neighbours import it: src/mcp/sdk.ts is "./sdk.js".
  const spec = new RegExp(`^\\./${basename(entry, '.ts')}\\.js$`);
  return {
    name: `${name}-file`,
    setup(b) {
      b.onResolve({ filter: spec }, (args) => (importer.test(args.importer) ? { path: name, namespace } : undefined));
      b.onResolve({ filter: /^\.\/start\.cjs$/, namespace }, () => ({ path: './start.cjs', external: true }));
      b.onLoad({ filter: /.*/, namespace }, () => ({
        loader: 'js',
        contents: `const loaded = require('./start.cjs').load(require('node:path').join(__dirname, '${name}.cjs'));\n`
          + "process.once('exit', () => loaded.save());\nmodule.exports = loaded.exports;",
      }));
    },
  };
}
/**
 * `voicectl mcp` needs the MCP SDK and zod: as published, hundreds of files that take
 * several times a whole start to load; src/mcp/sdk.ts is the parts voicectl uses.
 */
const mcpSdkFile = await packageFile('mcp-sdk', 'src/mcp/sdk.ts', /\/src\/mcp\/[^/]+\.ts$/, { minify: true });
/**
 * The English reader of callback times (src/reports/requested-time/english.ts) needs
 * chrono-node: as published, some 270 files; src/reports/requested-time/chrono.ts is the
 * parts it uses. Names are kept: english.ts leaves two of chrono's parsers out by their
 * class names.
 */
const chronoFile = await packageFile('chrono', 'src/reports/requested-time/chrono.ts', /\/src\/reports\/requested-time\/english\.ts$/, { minifyWhitespace: true, minifySyntax: true, keepNames: true });
/**
 * The parts of undici voicectl uses (src/api/undici.ts), some 400 KB: only the commands that
 * talk to the service need them. Every other command reads and compiles a main.cjs and a
 * code cache smaller by that much: `contacts validate` of 10,000 rows starts ~10 ms sooner
 * (docs/performance.md), and a command that reads from the service loads the two files.
 */
const undiciFile = await packageFile('undici', 'src/api/undici.ts', /\/src\/api\/(client|dispatcher)\.ts$/, { minifyWhitespace: true, plugins: [noHttp2, lazyUndiciBuiltins] });
/**
 * Every other command line runs dist/main.cjs: the whole program as one CommonJS file,
 * every lazy load inlined as a function that runs when first called. Node loads it as
 * one file, compiled from a code cache (src/start.ts), where the ES build costs a module
 * job per chunk and, on Node 20, compiling each of them again on every run: 40-50 ms of
 * a command that reads from the service. The ES build stays for the package's exports,
 * the sandbox and worker threads.
 */
const mainBuild = await build({
  entryPoints: { main: 'src/main.ts' },
  ...CJS,
  external,
  plugins: [lazyChildProcess, noHttp2, lazyUndiciBuiltins, versionConstant, mcpSdkFile, chronoFile, undiciFile],
  // Whitespace only (names stay, for --debug stacks): a smaller file to read and hash at every start.
  minifyWhitespace: true,
  define: { __VOICECTL_VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__voicectlUrl' },
  // Code that finds files beside itself (worker threads, the metadata) reads import.meta.url.
  banner: { js: "const __voicectlUrl = require('node:url').pathToFileURL(__filename).href;" },
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
});
// A package given its own file must not come back into main.cjs through another import.
for (const input of Object.keys(mainBuild.metafile.inputs)) {
  if (/node_modules\/(undici|@modelcontextprotocol|zod|chrono-node)\//.test(input)) throw new Error(`dist/main.cjs includes ${input}, which belongs in its own file: import it through its file's module (src/api/undici.ts, src/mcp/sdk.ts, src/reports/requested-time/chrono.ts)`);
}

/**
 * esbuild escapes non-ASCII text in strings but leaves it in regular expression literals.
 * The start path reads the files it compiles as latin1 (src/code-cache.ts): a one-byte
 * string, where one non-ASCII character would make the whole 1.2 MB source a two-byte
 * string, slower to read. \uXXXX means the same character in a regular expression as in
 * a string (a character outside the BMP becomes its two surrogates, which is what a
 * literal is without the u flag and the same code point with it).
 */
function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
/**
 * The start path compiles these files as they are (src/code-cache.ts), each written inside
 * the function Node's loader would put around it (src/module-wrapper.ts).
 */
const { WRAPPER_HEAD, WRAPPER_TAIL } = createRequire(import.meta.url)('../dist/start.cjs');
const startPathFile = (code) => `${WRAPPER_HEAD}${asciiOnly(code)}${WRAPPER_TAIL}`;
for (const file of ['dist/help.cjs', 'dist/mcp-sdk.cjs', 'dist/chrono.cjs', 'dist/undici.cjs']) writeFileSync(file, startPathFile(readFileSync(file, 'utf8')));

// Node compiles dist/main.cjs from a code cache through vm.Script (src/code-cache.ts), and
// import() in functions restored from a cache has no loader to call. The packages that
// must be loaded with import() (ES modules only; Node built-ins loaded lazily) are loaded through a function the start
// path passes in, which Node compiled as usual.
{
  const file = 'dist/main.cjs';
  const code = readFileSync(file, 'utf8').replace(/\bimport\("([^"]+)"\)/g, (call, specifier) => {
    const root = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    const builtin = specifier.startsWith('node:') || builtinModules.includes(specifier);
    if (!builtin && !external.includes(root)) throw new Error(`dist/main.cjs: import("${specifier}") is not of an external package`);
    return `__voicectlImport(${JSON.stringify(specifier)})`;
  });
  writeFileSync(file, startPathFile(code));
}

// V8's code caches for dist/help.cjs and dist/main.cjs, written by a fresh Node after a
// warm-up, so the functions a run needs are in them (see src/start.ts).
for (const f of readdirSync('dist')) if (/\.cjs\.(.+\.)?cache$/.test(f)) rmSync(join('dist', f), { force: true });
const warm = spawnSync(process.execPath, [fileURLToPath(new URL('./code-cache.cjs', import.meta.url))], { stdio: ['ignore', 'ignore', 'inherit'] });
if (warm.status !== 0) throw new Error(`writing the code caches in dist/ failed (exit ${warm.status})`);

// Chunks of earlier builds are removed once they are old enough that no build running at
// the same time (tests build too) can still need them.
const produced = new Set(Object.keys(result.metafile.outputs).map((f) => resolve(f)));
const chunks = resolve('dist/chunks');
for (const name of existsSync(chunks) ? readdirSync(chunks) : []) {
  const file = join(chunks, name);
  if (!produced.has(file) && Date.now() - statSync(file).mtimeMs > 10 * 60_000) rmSync(file, { force: true });
}
