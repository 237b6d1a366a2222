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

export type PatternName = 'isTTY' | 'ctx.opts.output' | 'escape sequence' | 'direct write';

/** Under src/commands/ and in domain modules, only src/io decides these (views excepted). */
export const PATTERNS: { name: PatternName; source: string; why: string }[] = [
  { name: 'isTTY', source: String.raw`\bisTTY\b`, why: 'whether a stream is a terminal is src/io\'s question (one terminal rule)' },
  { name: 'ctx.opts.output', source: String.raw`\bctx\.opts\.output\b`, why: 'the output format is read through src/io (ctx.io.format, render, printList)' },
  { name: 'escape sequence', source: String.raw`(?<!\\)\\(?:x1b|x1B|u001b|u001B|u\{1b\}|033)`, why: 'cursor moves and colours belong to src/io and chalk' },
  { name: 'direct write', source: String.raw`\bprocess\.(?:stdout|stderr)\b|\bio\.(?:stdout|stderr)\.write\b`, why: 'lines go out through ctx.out/ctx.info and src/io, which own the streams' },
];

const FOUNDATION = ['util', 'text', 'errors', 'support'];
/** What every domain module may use. */
const DOMAIN_BASE = ['api', 'io', 'context', ...FOUNDATION];

/** Domain modules: workflows and models that verbs share. */
export const DOMAINS = [
  'agents', 'approvals', 'calls', 'campaigns', 'config', 'contacts', 'doctor', 'events', 'export', 'gitops', 'hours', 'kb', 'mcp',
  'quality', 'reports', 'sandbox', 'warehouse', 'watch', 'webhooks', 'wizard',
];

function domain(name: string, role: string, may: string[], extra: Partial<Layer> = {}): Layer {
  return { name, files: [`${name}/`], role, may: [...DOMAIN_BASE, ...may], ...extra };
}

export const LAYERS: Layer[] = [
  {
    name: 'entry',
    files: ['start.ts', 'main.ts', 'help.ts', 'code-cache.ts'],
    role: 'bin/voicectl.js starts here: fast paths (--version, --help), then main.ts run(argv, ctx)',
    may: ['program', 'outcome', 'context', 'io', 'api', ...FOUNDATION],
  },
  {
    name: 'outcome',
    files: ['outcome.ts'],
    role: 'the one place errors become exit codes and messages, for the process and for the MCP server\'s tools',
    may: ['context', 'io', 'api', ...FOUNDATION],
  },
  {
    name: 'program',
    files: ['program.ts'],
    role: 'builds the commander program from the command groups; the only module that imports src/commands/',
    may: ['commands', 'commands-shared', 'context', ...FOUNDATION],
  },
  {
    name: 'commands',
    files: ['commands/*/'],
    role: 'one folder per group: definition.ts declares each verb as one spec (name, arguments, options, help, examples, action), one action file per verb',
    may: ['commands-shared', 'context', 'io', 'api', ...DOMAINS, ...FOUNDATION],
    note: 'a verb may import its own group\'s files, never another group\'s folder',
  },
  {
    name: 'commands-shared',
    files: ['commands/shared.ts', 'commands/spec.ts'],
    role: 'what every group shares: the verb spec and the one function that makes it a command, global options, argument parsers',
    may: ['context', 'io', ...FOUNDATION],
  },
  {
    name: 'context',
    files: ['context.ts', 'context-test.ts'],
    role: 'Context: streams, options, settings, api(), clock; injected into every verb, never global; context-test.ts builds one with fake streams for tests (never bundled)',
    may: ['api', 'config', 'io', ...FOUNDATION],
  },
  domain('agents', 'agent fields: names, validation', []),
  domain('approvals', 'launch plans, their hashes and one-use approvals (`voicectl approve`, the MCP launch tool)', ['agents', 'campaigns', 'config', 'contacts', 'hours']),
  domain('calls', 'the call model and `call tail`', ['export']),
  domain('campaigns', 'create, split, exclude and launch campaigns; campaigns/run/ runs a campaign to its end', ['agents', 'calls', 'contacts', 'events', 'export', 'hours', 'kb', 'quality', 'reports', 'watch', 'webhooks'], {
    note: 'campaigns/run/ (campaign run) is part of this layer',
  }),
  {
    name: 'config',
    files: ['config/'],
    role: 'the config file and profiles; read by Context',
    may: FOUNDATION,
    note: 'Context imports it, so it stays below the domains',
  },
  domain('contacts', 'spreadsheets and JSON contacts, phone numbers, the contacts report', []),
  domain('doctor', 'the checks `voicectl doctor` runs, each with its fix; reads only', ['campaigns', 'config', 'contacts', 'hours', 'webhooks']),
  domain('events', 'the webhook event log: backfill, reconcile, report', ['calls', 'export', 'webhooks']),
  domain('export', 'call export: pages, sinks, recordings, transcripts, resumable state', ['calls']),
  domain('gitops', 'account as code: load, plan, apply, pull', ['agents', 'export', 'kb', 'webhooks']),
  domain('hours', 'calling hours: the daily window, the zones of a phone number, local time; the gate before anything is dialed', ['contacts']),
  domain('kb', 'knowledge base: collection, upload, indexing, formats', ['contacts']),
  domain('mcp', 'the MCP server: each tool runs the matching verb in process and answers what its --json prints', ['outcome', 'agents', 'approvals', 'calls', 'campaigns', 'config', 'contacts', 'events', 'export', 'gitops', 'hours', 'kb', 'quality', 'reports', 'watch', 'webhooks']),
  domain('quality', 'the call quality gate (`calls check`, `calls pin`, `voicectl test`)', ['agents', 'calls', 'campaigns', 'config', 'contacts', 'events', 'export', 'gitops', 'hours', 'reports', 'watch'], {
    note: 'it reads suppression lists with contacts/ and a suite\'s agent handle from the account files with gitops/',
  }),
  domain('reports', 'campaign reports (text, HTML) and follow-ups', ['calls', 'campaigns', 'config', 'contacts', 'events', 'export', 'hours', 'quality']),
  {
    name: 'sandbox',
    files: ['sandbox/'],
    role: 'the emulator of the whole service (`voicectl sandbox`)',
    may: ['webhooks', ...FOUNDATION],
    note: 'it takes only the webhook signature (the spec\'s wire format) from the client side; a shared HTTP stack or API model would hide a client bug in both',
  },
  domain('warehouse', 'SQL over a folder of Parquet call exports (`voicectl sql`): the embedded engine, loaded only when a query runs, and the named queries', ['export'], {
    note: 'DuckDB is an optional dependency: only this layer imports it, and only when a query runs',
  }),
  domain('watch', 'the live campaign view and its poller', ['calls', 'events']),
  domain('webhooks', 'signatures, the `listen` receiver, forwarding, sample events', ['config']),
  domain('wizard', 'the interactive agent wizard', ['agents', 'config', 'contacts', 'kb']),
  {
    name: 'api',
    files: ['api/'],
    role: 'one client (undici, auth, retries, errors, pagination) and one small module per resource; never prints',
    may: FOUNDATION,
  },
  {
    name: 'text',
    files: ['text/'],
    role: 'one spelling of what a person reads: counts, durations, clocks, sizes, one-line cuts, shell words, terminal-safe text',
    may: [],
    note: 'pure functions, so every layer may use them (the api\'s error messages too)',
  },
  {
    name: 'io',
    files: ['io/'],
    role: 'streams, output formats (table, json, jsonl, csv), the progress indicator, prompts',
    may: ['context', ...FOUNDATION],
    note: 'only `import type { Context }`: the printers take the context whose streams and format they use',
  },
  {
    name: 'util',
    files: ['util/'],
    role: 'small helpers: time, redaction, file errors, the one atomic-file writer',
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
    files: ['version.ts', 'paths.ts', 'wasm-baseline.ts', 'argv.ts', 'types/'],
    role: 'build facts and start-up helpers: version, install paths, argv pre-scan, type shims',
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
  ...inFile('mcp/runner.ts', { isTTY: 'declares the in-process run\'s captured streams not terminals (it sets isTTY, never reads it)' }),
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
