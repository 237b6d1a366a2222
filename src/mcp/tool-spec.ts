/**
 * What a tool of `voicectl mcp` is (the verb it runs, what its handler may use, its answer)
 * and the pieces the tools are declared with: input properties bound to the verb's options
 * and arguments (verb-spec.ts reads their descriptions and choices from the verb's spec),
 * annotations, cursors. The tools themselves are in tools-read.ts and tools-write.ts.
 */
import { z } from './sdk.js';
import type { Context } from '../context.js';
import type { Arg, VerbOutcome } from './runner.js';

export type ToolKind = 'read' | 'write' | 'spend';

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a tool's handler may use. */
export interface ToolDeps {
  /** Runs a command line with --json and answers its parsed output, or throws a ToolFailure with the CLI's message. */
  cli(argv: Arg[]): Promise<unknown>;
  /** The same, returning the outcome as is (contacts validate reports on exit 2 too). */
  cliOutcome(argv: Arg[]): Promise<VerbOutcome>;
  /** Writes inline rows as a CSV file that lives as long as the call; returns its path. */
  rowsFile(rows: Array<Record<string, unknown>>): Promise<string>;
  /** The launch, bound to a person's approval (src/mcp/launch.ts). */
  launch(args: LaunchArgs): Promise<ToolAnswer>;
  /** The tool's verb as a command line: its words, then a flag or positional for each property given that names an option or argument (`skip`: those the tool passes itself). */
  argv(args: Record<string, unknown>, skip?: readonly string[]): Arg[];
  /**
   * Parses a command line of the tool's verb as the CLI does (the same checks and messages,
   * the global options in force), then runs `action` instead of the verb's own action: for
   * a tool that answers a plan where the verb would go on to act. Its answer, or a ToolFailure.
   */
  instead(argv: Arg[], action: (ctx: Context, flags: Record<string, unknown>) => Promise<Record<string, unknown>>): Promise<Record<string, unknown>>;
}

export interface ToolAnswer {
  structured: Record<string, unknown>;
  /** A refusal the model should read (approval needed): an MCP tool error with the structured answer too. */
  isError?: boolean;
  text?: string;
}

export interface LaunchArgs {
  campaign_id: string;
  calling_hours?: string;
  ignore_calling_hours?: boolean;
}

/**
 * Where a property comes from: an option of the verb (by its long name, `default-country`),
 * an argument (by its name in the usage, `id`), or the tool itself (inline rows that become
 * the file the verb reads; the page size and cursor of a paged answer).
 */
export type ParamSource = { option: string } | { argument: string } | { own: 'rows' | 'limit' | 'cursor' };

/** One property of a tool's input. */
export interface Param {
  from: ParamSource;
  /**
   * A narrower type than the spec gives (a bounded text, a whole number for `<n>`); its
   * description is the spec's all the same. By default: a yes/no for a flag without a
   * value, a list for a repeatable or comma-separated one, the choices, else a text.
   * A tool's own property has only this type, with its own description.
   */
  type?: z.ZodType;
  /** Required or not where the spec says otherwise (a run's forecast needs a name; a file may come as rows instead). */
  required?: boolean;
  /** Only these of the spec's choices. */
  only?: readonly [string, ...string[]];
  /** A name clients already send that the fixed rule would spell otherwise (verb-spec.ts); kept so that they keep working. */
  kept?: true;
}

export const option = (name: string, type?: z.ZodType, more: Omit<Param, 'from' | 'type'> = {}): Param => ({ from: { option: name }, ...(type ? { type } : {}), ...more });
export const argument = (name: string, type?: z.ZodType, more: Omit<Param, 'from' | 'type'> = {}): Param => ({ from: { argument: name }, ...(type ? { type } : {}), ...more });

export interface ToolSpec {
  name: string;
  /** The verb the tool runs, as typed after `voicectl`: `call list`. Its input is that verb's options and arguments. */
  verb: string;
  kind: ToolKind;
  description: string;
  annotations: ToolAnnotations;
  /** Each property, bound to the verb's option or argument it sets (or the tool's own). */
  input: Record<string, Param>;
  /** The arguments that name files or folders on this machine (a text or a list of texts): each must be inside the server's folder (confine.ts). */
  paths?: readonly string[];
  /** Open objects: the service's objects carry more fields than any schema here names. */
  output: z.ZodObject;
  call(args: Record<string, unknown>, deps: ToolDeps): Promise<ToolAnswer>;
}

/** A failure in the CLI's own words (what it prints on stderr), with its exit code. */
export class ToolFailure extends Error {
  constructor(message: string, readonly exitCode: number) {
    super(message);
    this.name = 'ToolFailure';
  }
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** Past this many characters of transcript, a call's transcript is cut and says so. */
export const TRANSCRIPT_CHARS = 20_000;

/** An id or a name: bounded text. */
export const id = () => z.string().min(1).max(200);
/** A path on this machine. */
export const pathText = () => z.string().min(1).max(4096);
export const paging: Record<'limit' | 'cursor', Param> = {
  limit: { from: { own: 'limit' }, type: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`items per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`) },
  cursor: { from: { own: 'cursor' }, type: z.string().max(200).optional().describe('next_cursor of the previous page; omit for the first page') },
};
export const object = z.looseObject({});
export const page = {
  items: z.array(object).describe('what `voicectl … --json` prints for this page'),
  next_cursor: z.string().nullable().describe('pass as cursor for the next page; null on the last page'),
};
export const text = (max: number) => z.string().min(1).max(max);
/** Inline rows, written to a CSV file that the verb reads as its contacts file. */
export const rowsInput: Param = {
  from: { own: 'rows' },
  type: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))).min(1).max(10_000).optional()
    .describe('spreadsheet rows as objects, header to cell, for example [{"phone": "+91 98123 45670", "name": "Asha"}]'),
};

const READ: ToolAnnotations = { title: '', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const annotate = (title: string, a: Partial<ToolAnnotations> = {}): ToolAnnotations => ({ ...READ, ...a, title });
export const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };

/** An opaque cursor: the offset of the next page. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // fall through to the error
  }
  throw new ToolFailure('error: the cursor is not one this server gave; start again without a cursor.', 2);
}

/** One page of a list verb that takes --limit and --offset: one more item is read, to know whether a next page exists. */
export async function listPage(deps: ToolDeps, argv: Arg[], args: Record<string, unknown>): Promise<ToolAnswer> {
  const limit = (args.limit as number | undefined) ?? DEFAULT_LIMIT;
  const offset = decodeCursor(args.cursor as string | undefined);
  const all = asArray(await deps.cli([...argv, `--limit=${limit + 1}`, `--offset=${offset}`]));
  return { structured: { items: all.slice(0, limit), next_cursor: all.length > limit ? encodeCursor(offset + limit) : null } };
}

export function asArray(value: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(value)) throw new ToolFailure('error: the command did not print a list.', 1);
  return value as Array<Record<string, unknown>>;
}

export function asObject(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { items: value };
  if (value && typeof value === 'object') return value as Record<string, unknown>;
  throw new ToolFailure('error: the command did not print an object.', 1);
}

/** An option's flag for a value: none for nothing or false, the bare flag for true, one `--name=value` per item of a list. */
export const flag = (name: string, value: unknown): string[] => {
  if (value === undefined || value === null || value === false) return [];
  if (value === true) return [`--${name}`];
  if (Array.isArray(value)) return value.map((v) => `--${name}=${String(v)}`);
  return [`--${name}=${String(value)}`];
};
export const pos = (value: unknown): Arg => ({ positional: String(value) });

/** The command line of `tool`'s verb for these arguments: its words, a flag per option given, the arguments in the order declared. */
export function verbArgv(tool: Pick<ToolSpec, 'verb' | 'input'>, args: Record<string, unknown>, skip: readonly string[] = []): Arg[] {
  const flags: Arg[] = [];
  const positionals: Arg[] = [];
  for (const [key, param] of Object.entries(tool.input)) {
    const value = args[key];
    if (skip.includes(key) || value === undefined || value === null) continue;
    if ('option' in param.from) flags.push(...flag(param.from.option, value));
    else if ('argument' in param.from) positionals.push(...(Array.isArray(value) ? value : [value]).map(pos));
  }
  return [...tool.verb.split(' '), ...flags, ...positionals];
}

/** A call's transcript, cut past a size with a note that says how to read the rest. */
export function cutTranscript(call: Record<string, unknown>, max = TRANSCRIPT_CHARS): Record<string, unknown> {
  const t = call.transcript;
  if (t === undefined || t === null) return call;
  const size = (typeof t === 'string' ? t : JSON.stringify(t)).length;
  if (size <= max) return call;
  const how = `voicectl call get ${String(call.call_id ?? call.id ?? '<call_id>')} --json`;
  if (typeof t === 'string') {
    return { ...call, transcript: t.slice(0, max), transcript_note: `Transcript cut at ${max} of ${size} characters; the whole transcript: ${how}.` };
  }
  if (Array.isArray(t)) {
    const kept: unknown[] = [];
    let used = 2;
    for (const turn of t) {
      const n = JSON.stringify(turn).length + 1;
      if (used + n > max) break;
      kept.push(turn);
      used += n;
    }
    return { ...call, transcript: kept, transcript_note: `Transcript cut at ${kept.length} of ${t.length} turns (${max} characters); the whole transcript: ${how}.` };
  }
  return { ...call, transcript: null, transcript_note: `Transcript left out: ${size} characters, over ${max}; read it with ${how}.` };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
