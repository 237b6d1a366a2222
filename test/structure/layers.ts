/**
 * The layer map of src/, stated once. test/structure/layers.test.ts holds every import to
 * it (type-only imports included) and scripts/architecture.js writes docs/architecture.md
 * from it, so the document and the code cannot drift apart.
 *
 * This module imports nothing: scripts/architecture.js reads it without the test runner.
 *
 * Paths are relative to src/: a name ending in `/` is a folder and everything under it;
 * `commands/*\/` is each command group's folder. A file belongs to the first layer that
 * names it. Imports within one layer are always allowed, except between two command
 * groups: a verb never reaches into another group's folder.
 */

export interface Layer {
  name: string;
  files: string[];
  /** What lives here, in one line. */
  role: string;
  /** The layers this one may import. */
  may: string[];
  /** Why the rule is what it is, when that is not obvious. */
  note?: string;
  /** Named in the map before the code exists, so the work under way lands inside it. */
  coming?: boolean;
}

/** Imports that break the map today: each named, with why, until it is fixed. */
export interface ImportException {
  /** A file or folder (ending in `/`) under src/. */
  from: string;
  /** A file or folder (ending in `/`) under src/. */
  to: string;
  reason: string;
}

/** Modules that draw on a terminal themselves (progress and live views). */
export interface View {
  file: string;
  reason: string;
}

export interface PatternException {
  file: string;
  pattern: PatternName;
  reason: string;
}

export type DecisionName = 'terminal' | 'colour' | 'format' | 'prompt' | 'progress';
export type OutputName = 'escape sequence' | 'direct write';
export type PatternName = DecisionName | OutputName;

/**
 * The terminal's decisions: outside src/io, no file reads what they are made from; it asks
 * ctx.io (src/io/streams.ts). Setting a stream's isTTY (a fake or captured stream) or a
 * child's NO_COLOR is not reading it, and a table's own `columns` is not a stream's.
 */
export const DECISIONS: { name: DecisionName; source: string; why: string }[] = [
  { name: 'terminal', source: String.raw`\.isTTY\b(?!\s*=[^=])|\b(?:stdout|stderr|stdin|out|err|stream|tty)\??\.(?:columns|rows)\b|\bgetWindowSize\b|\benv\??\.TERM\b`, why: 'whether a stream is a terminal, how wide and how tall, and TERM=dumb: ctx.io.isTerminal, columns, rows, lineWidth, helpWidth' },
  { name: 'colour', source: String.raw`\benv\??\.(?:NO_COLOR|FORCE_COLOR)\b|\benv\[['"](?:NO_COLOR|FORCE_COLOR)['"]\]|\bopts\??\.color\b`, why: 'whether text is coloured (--no-color, NO_COLOR, FORCE_COLOR): ctx.io.color, errColor' },
  { name: 'format', source: String.raw`\bopts\??\.(?:output|json|jq|template)\b`, why: 'the output format (--json, -o, --jq, --template): ctx.io.format, render, printList, ownFormat' },
  { name: 'prompt', source: String.raw`\bopts\??\.input\b|\benv\??\.CI\b|\benv\[['"]CI['"]\]`, why: 'whether a person may be asked (--no-input, CI): ctx.io.canPrompt(), whyNoPrompt()' },
  { name: 'progress', source: String.raw`\bopts\??\.accessible\b|\benv\??\.VOICECTL_ACCESSIBLE\b|\benv\[['"]VOICECTL_ACCESSIBLE['"]\]`, why: 'whether progress is drawn and lines redrawn (--accessible, VOICECTL_ACCESSIBLE): ctx.io.interactiveStderr, redraws, accessible' },
];

/** Under src/commands/ and in domain modules, output goes through src/io (views excepted). */
export const OUTPUT_PATTERNS: { name: OutputName; source: string; why: string }[] = [
  { name: 'escape sequence', source: String.raw`(?<!\\)\\(?:x1b|x1B|u001b|u001B|u\{1b\}|033)`, why: 'cursor moves and colours belong to src/io and chalk' },
  { name: 'direct write', source: String.raw`\bprocess\.(?:stdout|stderr)\b|\bio\.(?:stdout|stderr)\.write\b`, why: 'lines go out through ctx.out/ctx.info and src/io, which own the streams' },
];

/** Domain modules: workflows and models that verbs share. */
export const DOMAINS = [
  'agents', 'approvals', 'calls', 'campaigns', 'config', 'contacts', 'doctor', 'events', 'export', 'gitops', 'hours', 'kb', 'mcp',
  'quality', 'reports', 'sandbox', 'warehouse', 'watch', 'webhooks', 'wizard',
];

const folder = (name: string, role: string, may: string[], extra: Partial<Layer> = {}): Layer => ({ name, files: [`${name}/`], role, may, ...extra });

/**
 * Top to bottom, a strict order: a layer may import only layers listed below it, and each
 * `may` is exactly what the layer's files import (the test fails on a grant no import
 * uses), so the graph of layers has no loop and the table says what the code does.
 */
export const LAYERS: Layer[] = [
  {
    name: 'entry',
    files: ['start.ts', 'main.ts', 'help.ts', 'code-cache.ts'],
    role: 'bin/voicectl.js starts here: fast paths (--version, --help), then main.ts run(argv, ctx)',
    may: ['program', 'outcome', 'context', 'io', 'util', 'errors', 'support'],
  },
  {
    name: 'program',
    files: ['program.ts'],
    role: 'builds the commander program from the command groups; the only module that imports src/commands/',
    may: ['commands', 'commands-shared', 'context', 'support'],
  },
  {
    name: 'commands',
    files: ['commands/*/'],
    role: 'one folder per group: definition.ts declares each verb as one spec (name, arguments, options, help, examples, action), one action file per verb',
    may: [
      'commands-shared', 'mcp', 'doctor', 'approvals', 'quality', 'campaigns', 'reports', 'wizard', 'gitops', 'events', 'sandbox', 'warehouse',
      'watch', 'export', 'calls', 'kb', 'agents', 'webhooks', 'hours', 'contacts', 'context', 'config', 'io', 'api', 'text', 'util', 'errors', 'support',
    ],
    note: 'a verb may import its own group\'s files, never another group\'s folder',
  },
  {
    name: 'commands-shared',
    files: ['commands/shared.ts', 'commands/spec.ts'],
    role: 'what every group shares: the verb spec and the one function that makes it a command, global options, argument parsers',
    may: ['context', 'util'],
  },
  folder('mcp', 'the MCP server: each tool runs the matching verb in process and answers what its --json prints', ['approvals', 'campaigns', 'reports', 'gitops', 'hours', 'outcome', 'context', 'text', 'errors', 'support'], {
    note: 'each tool\'s input is read from its verb\'s spec through the program builder the `mcp` verb hands the server, not by importing commands/: that verb imports this server, so a grant would make the two layers a loop',
  }),
  folder('doctor', 'the checks `voicectl doctor` runs, each with its fix; reads only', ['campaigns', 'hours', 'context', 'config', 'api', 'text', 'errors']),
  folder('approvals', 'launch plans, their hashes and one-use approvals (`voicectl approve`, the MCP launch tool)', ['campaigns', 'hours', 'context', 'config', 'api', 'text', 'util', 'errors']),
  folder('quality', 'the call quality gate (`calls check`, `calls pin`, `voicectl test`)', ['campaigns', 'gitops', 'export', 'hours', 'contacts', 'context', 'config', 'io', 'api', 'text', 'util', 'errors'], {
    note: 'it reads suppression lists with contacts/ and a suite\'s agent handle from the account files with gitops/',
  }),
  folder('campaigns', 'create, split, exclude and launch campaigns; campaigns/run/ runs a campaign to its end', ['reports', 'webhooks', 'hours', 'contacts', 'context', 'io', 'api', 'text', 'util', 'errors'], {
    note: 'campaigns/run/ (campaign run) is part of this layer',
  }),
  folder('reports', 'campaign reports (text, HTML) and follow-ups', ['calls', 'hours', 'api', 'text', 'util', 'errors'], {
    note: 'a run\'s report reads the fields of its journal it needs (RunWaves), not campaigns/run/',
  }),
  folder('wizard', 'the interactive agent wizard', ['kb', 'agents', 'context', 'io', 'api', 'text', 'errors']),
  folder('gitops', 'account as code: load, plan, apply, pull', ['webhooks', 'api', 'text', 'util', 'errors']),
  folder('events', 'the webhook event log: backfill, reconcile, report', ['export', 'webhooks', 'api', 'text', 'util']),
  folder('sandbox', 'the emulator of the whole service (`voicectl sandbox`)', ['webhooks', 'util'], {
    note: 'it takes only the webhook signature (the spec\'s wire format) from the client side; a shared HTTP stack or API model would hide a client bug in both',
  }),
  folder('warehouse', 'SQL over a folder of Parquet call exports (`voicectl sql`): the embedded engine, loaded only when a query runs, and the named queries', ['export', 'errors'], {
    note: 'DuckDB is an optional dependency: only this layer imports it, and only when a query runs',
  }),
  folder('watch', 'the live campaign view and its poller', ['calls', 'context', 'api', 'text', 'util', 'errors']),
  folder('export', 'call export: pages, sinks, recordings, transcripts, resumable state', ['context', 'io', 'api', 'text', 'util', 'errors', 'support']),
  folder('calls', 'the call model and `call tail`', ['context', 'api', 'text', 'util', 'errors']),
  folder('kb', 'knowledge base: collection, upload, indexing, formats', ['context', 'io', 'api', 'text', 'errors']),
  folder('agents', 'agent fields: names, validation', ['api', 'util', 'errors']),
  folder('webhooks', 'signatures, the `listen` receiver, forwarding, sample events', ['context', 'config', 'api', 'text', 'util', 'errors']),
  folder('hours', 'calling hours: the daily window, each number\'s zones (libphonenumber\'s map), local time, and the gate before anything is dialed', ['contacts', 'context', 'io', 'text', 'util', 'errors'], {
    note: 'read by campaigns, approvals, doctor, quality, reports and the verbs, so it sits below all of them; it asks contacts/ whether a number is valid',
  }),
  folder('contacts', 'spreadsheets and JSON contacts, phone numbers, the contacts report', ['io', 'text', 'util', 'errors']),
  {
    name: 'outcome',
    files: ['outcome.ts'],
    role: 'the one place errors become exit codes and messages, for the process and for the MCP server\'s tools',
    may: ['context', 'api', 'text', 'util', 'errors'],
  },
  {
    name: 'context',
    files: ['context.ts', 'context-test.ts'],
    role: 'Context: the run\'s options, settings, api(), clock (util/clock.ts) and its io (src/io/streams.ts); injected into every verb, never global; context-test.ts builds one with fake streams for tests (never bundled)',
    may: ['config', 'io', 'api', 'text', 'util', 'errors'],
  },
  {
    name: 'config',
    files: ['config/'],
    role: 'the config file and profiles; read by Context',
    may: ['util', 'errors'],
    note: 'Context imports it, so it stays below the domains',
  },
  {
    name: 'io',
    files: ['io/'],
    role: 'the terminal (IOStreams: streams, format, colour, widths, prompts, progress), output formats (table, json, jsonl, csv), the progress indicator, prompts',
    may: ['text', 'util', 'errors'],
    note: 'the printers take an IoContext (src/io/streams.ts), which Context is: io imports nothing above it',
  },
  {
    name: 'api',
    files: ['api/'],
    role: 'one client (undici, auth, retries, errors, pagination) and one small module per resource; never prints',
    may: ['text', 'util', 'errors', 'support'],
  },
  {
    name: 'text',
    files: ['text/'],
    role: 'one spelling of what a person reads: counts, durations, clocks, sizes, one-line cuts, shell words, terminal-safe text',
    may: [],
    note: 'pure functions, so every layer may use them (the api\'s error messages too)',
  },
  {
    name: 'util',
    files: ['util/'],
    role: 'small helpers: time, the run\'s clock, redaction, file errors, the one atomic-file writer',
    may: [],
  },
  {
    name: 'errors',
    files: ['errors.ts'],
    role: 'the typed errors and exit codes',
    may: [],
  },
  {
    name: 'support',
    files: ['version.ts', 'paths.ts', 'wasm-baseline.ts', 'module-wrapper.ts', 'argv.ts', 'types/'],
    role: 'build facts and start-up helpers: version, install paths, argv pre-scan, the built files\' module function, type shims',
    may: [],
  },
];

export const IMPORT_EXCEPTIONS: ImportException[] = [
];

export const VIEWS: View[] = [
  { file: 'campaigns/run/view.ts', reason: 'the redrawn `campaign run` screen (waves, counts, the next opening per zone)' },
  { file: 'watch/view-terminal.ts', reason: 'the redrawn `watch` screen' },
];

/** One file's exceptions: each pattern it may use, with the reason. */
const inFile = (file: string, reasons: Partial<Record<PatternName, string>>): PatternException[] =>
  Object.entries(reasons).map(([pattern, reason]) => ({ file, pattern: pattern as PatternName, reason }));

export const PATTERN_EXCEPTIONS: PatternException[] = [
  ...inFile('mcp/transport.ts', { 'direct write': 'the MCP transport: JSON-RPC messages on stdout, one a line, are the protocol itself, not output for a person' }),
  ...inFile('commands/listen/listen.ts', { 'direct write': 'batched event lines written at the reader\'s pace; io should own the batching' }),
  ...inFile('commands/schema/schema.ts', { 'direct write': 'prints a whole generated file (the JSON schema), its last newline included' }),
  ...inFile('commands/completion/print.ts', { 'direct write': 'prints a whole generated file (the completion script) byte for byte' }),
];

/** The one module that seeds the sandbox over HTTP for tests (paths relative to test/). */
export const FACTORY = 'helpers/given.ts';

/** Test files that call the sandbox with their own fetch (paths relative to test/). */
export const FETCH_EXCEPTIONS: { file: string; reason: string }[] = [
  { file: 'sandbox/', reason: 'tests of the emulator\'s own HTTP API: the request is what is tested' },
  { file: 'campaigns/run/kill.test.ts', reason: 'a proxy in front of the sandbox that stops voicectl at a chosen request: it forwards requests, it does not seed' },
  { file: 'campaigns/run/proxy.test.ts', reason: 'a service with other envelopes, made by forwarding to the sandbox and reshaping its answers' },
  { file: 'commands/watch/watch.test.ts', reason: 'fetches the `watch --serve` page itself (with and without its token), not the sandbox' },
];

/**
 * Code that stands twice and stays so, each with the reason (paths relative to the folder
 * named). Reviewing a change for repeated code starts from this list: anything repeated
 * that is not here is a candidate for one shared function.
 */
export const REPEATS: { folder: 'src' | 'test'; files: [string, string]; reason: string }[] = [
  { folder: 'src', files: ['sandbox/records.ts', 'webhooks/signature.ts'], reason: 'the fields of a call, written out twice on purpose: the emulator\'s record and the client\'s event type each follow the API spec on their own, so a misreading in one cannot hide in the other' },
  { folder: 'src', files: ['commands/listen/definition.ts', 'commands/sandbox/definition.ts'], reason: 'option lines of the same shape (flag, description, parser, default) for different flags; what the two verbs share, --port and --host, already comes from serveOptions' },
  { folder: 'test', files: ['e2e/report-page.test.ts', 'e2e/report-page.test.ts'], reason: 'each browser test makes its report and opens Chromium the same way, then checks something else; a wrapper would hide which page each test opened' },
  { folder: 'test', files: ['campaigns/run/deadline.test.ts', 'sandbox/command.test.ts'], reason: 'two it.each tables of input and expected value: the same shape, different code under test' },
  { folder: 'test', files: ['text/text.test.ts', 'text/text.test.ts'], reason: 'the duration and clock cases, two tables of number and spelling side by side' },
];
