// Builds dist/ for bin/voicectl.js: an ESM bundle with code splitting, so start-up
// loads one small file (commander and chalk inside it) and every verb, the sandbox and
// the heavy libraries (left in node_modules) load only when a command needs them.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const bundled = new Set(['commander', 'chalk']);
const external = Object.keys(pkg.dependencies).filter((d) => !bundled.has(d));

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  // Stable entry points: the CLI, the `voicectl/webhooks` export, and the sandbox (benchmarks start it in process).
  entryPoints: Object.fromEntries(
    Object.entries({
      main: 'src/main.ts',
      'webhooks/signature': 'src/webhooks/signature.ts',
      'sandbox/index': 'src/sandbox/index.ts',
      // The phone-check worker thread is started from its own file (src/contacts/pool.ts).
      'contacts/phone-worker': 'src/contacts/phone-worker.ts',
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
  define: { __VOICECTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  legalComments: 'none',
  // commander is CommonJS: its require() of node built-ins needs a real require in ESM.
  banner: { js: "import { createRequire as __voicectlRequire } from 'node:module'; const require = __voicectlRequire(import.meta.url);" },
});
