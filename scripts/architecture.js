// Writes docs/architecture.md from the layer map in test/structure/layers.ts, the table
// that test/structure/layers.test.ts holds the code to. Run by `npm run docs`;
// test/structure/architecture-doc.test.ts keeps the file equal to what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The layer map, read from its TypeScript source (it imports nothing). */
export async function loadLayerMap() {
  const { transform } = await import('esbuild');
  const source = readFileSync(join(ROOT, 'test/structure/layers.ts'), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm' });
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

const code = (s) => `\`${s}\``;
const cellText = (s) => s.replaceAll('|', '\\|');
const where = (files) => files.map((f) => code(`src/${f}`)).join(', ');

/** docs/architecture.md for this layer map. */
export function architectureMarkdown(map) {
  const { LAYERS, IMPORT_EXCEPTIONS, VIEWS, DECISIONS, OUTPUT_PATTERNS, PATTERN_EXCEPTIONS, FACTORY, FETCH_EXCEPTIONS, REPEATS } = map;
  const out = [];
  const line = (s = '') => out.push(s);

  line('# How voicectl is laid out');
  line();
  line('<!-- Written by `npm run docs` from test/structure/layers.ts; edit that file or scripts/architecture.js, not this one. -->');
  line();
  line('This is the map for reading and changing voicectl: its layers, what each may import, two');
  line('commands followed from the command line to their output, and how to add a verb. The');
  line('layer table below is the one `test/structure/layers.test.ts` holds the code to: an import');
  line('outside it fails the tests, type-only imports included. The table is a strict order, top to');
  line('bottom: a layer imports only layers below it, so no two layers import each other, and what');
  line('each may import is exactly what its files do import.');
  line();
  line('Data flows one way: a verb parses its flags, calls a domain module or `src/api`, and hands');
  line('what it has to `src/io`, which alone decides between a table, JSON, JSON lines and CSV.');
  line('Errors travel up as typed errors; `src/main.ts` alone turns them into a message and an exit code.');
  line();
  line('## Layers');
  line();
  line('Read bottom to top: each row imports only from the rows under it. A layer stands one row above the');
  line('highest layer it imports, so a row\'s layers never import one another.');
  line();
  line('```text');
  for (const row of layerPicture(LAYERS)) line(row);
  line('```');
  line();
  line('| layer | files | what lives there | may import |');
  line('| --- | --- | --- | --- |');
  for (const l of LAYERS) {
    const files = l.files.map((f) => code(`src/${f}`)).join(' ');
    const role = `${l.role}${l.note ? `; ${l.note}` : ''}${l.coming ? ' (coming)' : ''}`;
    line(`| ${l.name} | ${files} | ${cellText(role)} | ${l.may.length ? l.may.join(', ') : 'nothing'} |`);
  }
  line();
  line('A layer may always import its own files, except that a command group never imports another');
  line("group's folder: what two groups share lives in a domain module or in `src/commands/shared.ts`.");
  line('Only `src/program.ts` imports the command groups.');
  line();
  line('### The terminal belongs to `src/io`');
  line();
  line('`ctx.io` (`IOStreams` in `src/io/streams.ts`) holds the streams and decides; outside `src/io` no file');
  line('reads what these are decided from (the entry and Context included), it asks `ctx.io`:');
  line();
  for (const p of DECISIONS) line(`- ${p.name}: ${p.why}.`);
  line();
  line('Under `src/commands/` and in the domain modules, output goes through `src/io` (the views below excepted):');
  line();
  for (const p of OUTPUT_PATTERNS) line(`- ${p.name}: ${p.why}.`);
  line();
  line(`Views, which draw on a terminal themselves: ${VIEWS.map((v) => `${code(`src/${v.file}`)} (${v.reason})`).join('; ')}.`);
  line();
  line('### Tests');
  line();
  line(`Tests build the world they start from through ${code(`test/${FACTORY}`)}, the factory module, which`);
  line('creates objects through the sandbox\'s own HTTP API; no other test file calls the sandbox with');
  line('a `fetch` of its own. How tests are written: [testing.md](testing.md).');
  line();
  line('## Known exceptions');
  line();
  line('Each is checked: a new one fails the tests, and so does one that no longer happens, so this list only shrinks.');
  line();
  line('Imports outside the table:');
  line();
  for (const e of IMPORT_EXCEPTIONS) line(`- ${code(`src/${e.from}`)} → ${code(`src/${e.to}`)}: ${e.reason}.`);
  if (IMPORT_EXCEPTIONS.length === 0) line('- none.');
  line();
  line('Terminal decisions and output outside `src/io`:');
  line();
  for (const e of PATTERN_EXCEPTIONS) line(`- ${code(`src/${e.file}`)} (${e.pattern}): ${e.reason}.`);
  line();
  line('Tests that call the sandbox with their own `fetch`:');
  line();
  const byReason = new Map();
  for (const e of FETCH_EXCEPTIONS) byReason.set(e.reason, [...(byReason.get(e.reason) ?? []), e.file]);
  for (const [reason, files] of byReason) line(`- ${files.map((f) => code(`test/${f}`)).join(', ')}: ${reason}.`);
  line();
  line('## Code that stands twice');
  line();
  line('A search for repeated code (runs of six or more lines alike, or alike but for names and values)');
  line('finds these pairs and no others; each stays, for the reason given. Any other repeat is a');
  line('candidate for one shared function.');
  line();
  for (const r of REPEATS) {
    const [a, b] = r.files.map((f) => code(`${r.folder}/${f}`));
    line(`- ${a === b ? `${a}, with itself` : `${a} and ${b}`}: ${r.reason}.`);
  }
  line();
  line(WALKS.trim());
  line();
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/**
 * The layers as a stack, bottom row last: a layer's row is one above the highest row of
 * what it may import (row 0 imports nothing), and each row lists its layers in the table's
 * order, wrapped to fit 100 columns.
 */
export function layerPicture(layers) {
  const byName = new Map(layers.map((l) => [l.name, l]));
  const rank = new Map();
  const rankOf = (name, seen = new Set()) => {
    if (rank.has(name)) return rank.get(name);
    if (seen.has(name)) throw new Error(`the layers loop through ${name}`);
    seen.add(name);
    const may = byName.get(name).may;
    const r = may.length === 0 ? 0 : 1 + Math.max(...may.map((m) => rankOf(m, seen)));
    rank.set(name, r);
    return r;
  };
  for (const l of layers) rankOf(l.name);
  const top = Math.max(...rank.values());
  const rows = [];
  const width = 100;
  for (let r = top; r >= 0; r--) {
    const names = layers.filter((l) => rank.get(l.name) === r).map((l) => `[ ${l.name} ]`);
    const label = `${String(r).padStart(2)} │ `;
    let current = label;
    for (const n of names) {
      if (current.length > label.length && current.length + 1 + n.length > width) {
        rows.push(current.trimEnd());
        current = `${' '.repeat(label.length - 2)}│ `;
      }
      current += `${n} `;
    }
    rows.push(current.trimEnd());
  }
  return rows;
}

/** The voice verbs' definition after its imports: the example of a verb's spec. */
const VOICE_SPEC = readFileSync(join(ROOT, 'src/commands/voice/definition.ts'), 'utf8')
  .replace(/^[^]*?\n(?=\/\*\* @internal \*\/\n)/, '')
  .trimEnd();

const WALKS = `
## From argv to output: \`voicectl call list --json\`

1. \`bin/voicectl.js\` requires the built \`src/start.ts\` (\`dist/start.cjs\`) and calls
   \`start(argv)\`. \`--version\` and \`--help\` are answered there (with \`src/help.ts\`)
   without building the whole program.
2. \`main(argv)\` in \`src/main.ts\` builds a \`Context\` (\`src/context.ts\`: the environment, the
   global options, the clock, and \`ctx.io\`, the streams and the terminal's rules) and calls \`run(argv, ctx)\`, which imports
   \`src/program.ts\` and parses argv with commander.
3. \`src/program.ts\` \`buildProgram\` makes each top-level command of \`COMMANDS\` with
   \`toCommand\` (\`src/commands/spec.ts\`), the one this command line names in full, the others
   as a name and a summary. \`call list\` is a spec in \`src/commands/call/definition.ts\`: its
   flags come from \`listOptions\`, and its action is \`() => import('./list.js')\`, so the
   verb's code loads only when it runs.
4. \`src/commands/call/list.ts\` reads the filters from its flags (\`filtersFrom\` in
   \`src/commands/call/fields.ts\`), asks \`ctx.api()\` for the client and calls \`listCalls\` in
   \`src/api/calls.ts\` behind \`withSpinner\` (\`src/io/progress.ts\`, silent under \`--json\`).
5. \`src/api/client.ts\` sends the request (auth, timeouts, retries of safe requests, error
   parsing into \`ApiError\`); \`src/api/pagination.ts\` reads pages for \`--all\`.
6. The verb hands the calls and their columns to \`printList\` in \`src/io/output.ts\`. With
   \`--json\` it writes the API's objects unchanged; for a table, the columns that fit the terminal.
7. A thrown error comes back to \`run\`, which prints it and returns its exit code
   (\`exitCodeFor\`); \`start\` sets \`process.exitCode\`.

## From argv to output: \`voicectl campaign create --csv leads.csv --launch\`

1. As above, up to the spec of \`campaign create\` in \`src/commands/campaign/definition.ts\`:
   its options (\`createOptions\`, with \`hoursOptions\`), help and examples; the action is
   \`src/commands/campaign/create.ts\`.
2. The verb checks the calling-hours flags (\`src/hours/hours-gate.ts\`), then reads the file
   with \`readContactsInput\` (\`src/campaigns/input.ts\`), which leaves spreadsheets, phone
   numbers and the contacts report to \`src/contacts/\`. One invalid row stops it with exit 2
   before any request.
3. Exclusions (\`src/campaigns/exclusions.ts\`) drop do-not-call numbers; \`resolveAgent\`
   (\`src/api/agents.ts\`) turns the agent's name into its id; a large list is split into parts
   (\`splitContacts\` in \`src/contacts/report.ts\`).
4. \`confirmLaunch\` (\`src/campaigns/launch-flow.ts\`) asks a person at a terminal, or requires
   \`--yes\`; \`gateCallingHours\` waits for or refuses outside the calling hours.
5. \`createAndLaunch\` (\`src/commands/campaign/create-flow.ts\`) hands the parts to
   \`createCampaigns\` (\`src/campaigns/create-campaigns.ts\`), which POSTs each to
   \`src/api/campaigns.ts\` (never retrying a POST), then launches them, and returns what it
   created and launched, or throws one \`CampaignsStopped\` holding what was created, the step
   that failed or got no answer, and the command that resumes. The verb says it once.
6. \`printCreated\` hands one result to \`render\` (\`src/io/render.ts\`): the campaigns as JSON
   for scripts, and for a table and \`-o csv\` the same rows, so both carry the same columns.

## How to add a verb

A verb is one spec and one action file. \`voice list\` is the smallest complete one; a new verb
in an existing group is built the same way, and touches nothing else.

1. **The spec**, in the group's \`definition.ts\` (\`src/commands/voice/definition.ts\`): the
   verb's name, alias, summary, arguments, options, help paragraphs, examples (as data) and
   its action, added to the group's \`verbs\`. The options are a function over a commander
   command (\`listOptions\`), and the flags type is derived from it, so the action cannot
   disagree with the parser; bad values are refused there with \`.choices()\` or an
   \`argParser\` (exit 2). \`toCommand\` in \`src/commands/spec.ts\` makes the commander
   command and its help, Examples block included; the action module's parameters are type-checked
   against the arguments and options. Here is the whole of it, as the file has it after its
   imports: the flags type the action imports, the spec, and the options:

\`\`\`ts
${VOICE_SPEC}
\`\`\`

2. **The action**, one file (\`src/commands/voice/list.ts\`): a default export
   \`(ctx, ...arguments, flags) => Promise<void>\`, loaded only when the verb runs, that calls
   the API (\`listVoices\` in \`src/api/voices.ts\`) or a domain module, and hands the rows and
   columns to \`printList\` in \`src/io/output.ts\`. It never checks for a terminal, never picks
   a format, never writes to a stream itself.

Then its tests, in one file, \`test/commands/<group>/<verb>.test.ts\` (here
\`test/commands/voice/list.test.ts\`), against the sandbox: the world from
\`test/helpers/given.ts\`, the command run with \`run\` (\`test/helpers/run.ts\`); see
[testing.md](testing.md). The help-example
test runs the spec's examples. \`npm run docs\` rewrites \`docs/reference.md\`,
\`docs/voicectl.1\` and this file. A new top-level command is a spec (a verb of its own, or a
group of verbs) in a new folder, added to \`COMMANDS\` in \`src/program.ts\`.
`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeArchitecture();
}

export async function writeArchitecture() {
  writeFileSync(join(ROOT, 'docs/architecture.md'), architectureMarkdown(await loadLayerMap()));
  console.log('docs/architecture.md: the layer map');
}
