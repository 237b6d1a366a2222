// `npm run docs`: writes docs/reference.md and docs/voicectl.1 from the program itself
// (see scripts/reference.js), and docs/architecture.md from the layer map (scripts/architecture.js). The program's source is bundled on the fly with esbuild, so
// what is written is what src/ says, built or not.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { writeArchitecture } from './architecture.js';
import { manPage, markdownReference, referenceModel } from './reference.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The reference model of src/program.ts's program. */
export async function modelFromSource() {
  // inside the package, where the program finds its package.json (for --version)
  const dir = mkdtempSync(join(ROOT, '.docs-build-'));
  try {
    const outfile = join(dir, 'program.mjs');
    await build({
      stdin: {
        contents: "export { buildProgram } from './src/program.ts'; export { Context } from './src/context.ts'; export { EXIT } from './src/errors.ts';",
        resolveDir: ROOT,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      logLevel: 'error',
      // Optional native dependencies (DuckDB) load only when a query runs: never bundled.
      external: Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).optionalDependencies ?? {}),
      // CommonJS dependencies inside an ES module bundle still call require()
      banner: { js: "import { createRequire as __voicectlRequire } from 'node:module'; const require = __voicectlRequire(import.meta.url);" },
    });
    const { buildProgram, Context, EXIT } = await import(pathToFileURL(outfile).href);
    return modelOf(buildProgram, Context, EXIT);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds the whole program with captured streams and reads each command's --help from it. */
export function modelOf(buildProgram, Context, EXIT) {
  let captured = '';
  const sink = { isTTY: false, write: (s) => ((captured += String(s)), true), on: () => sink, once: () => sink };
  const ctx = new Context({ io: { stdin: sink, stdout: sink, stderr: sink }, env: {} });
  const program = buildProgram(ctx);
  const helpOf = (cmd) => {
    captured = '';
    cmd.outputHelp();
    return captured;
  };
  return referenceModel(program, helpOf, EXIT);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const model = await modelFromSource();
  writeFileSync(join(ROOT, 'docs/reference.md'), markdownReference(model));
  writeFileSync(join(ROOT, 'docs/voicectl.1'), manPage(model));
  console.log(`docs/reference.md and docs/voicectl.1: ${model.commands.length} commands`);
  await writeArchitecture();
}
