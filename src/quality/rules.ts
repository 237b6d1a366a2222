/**
 * A rules file (`calls check --rules`) and the expectations of a test suite: YAML read
 * with each node's line, every rule checked (kind, types, regular expressions, windows)
 * before any request, so a mistake is exit 2 with the line it is on.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type YAMLMap } from 'yaml';
import { UsageError } from '../errors.js';
import { parseWindow, WINDOW_HELP, type HoursWindow } from '../hours/calling-hours.js';
import { grouped } from '../text/text.js';

const RULE_KINDS = [
  'first_agent_turn_matches', 'never_says', 'opt_out_honoured', 'max_duration', 'outcome_in',
  'language', 'within_calling_hours', 'not_suppressed', 'judge',
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export type Severity = 'error' | 'warn';

export interface Where {
  agent?: string[];
  outcome?: string[];
  status?: string[];
}

interface Base {
  id: string;
  severity: Severity;
  where?: Where;
  /** The line of the rule in its file, for messages. */
  line: number;
}

export type Rule = Base & (
  | { kind: 'first_agent_turn_matches'; pattern: RegExp }
  | { kind: 'never_says'; role: 'agent' | 'user' | 'any'; phrases: string[]; patterns: RegExp[] }
  | { kind: 'opt_out_honoured'; pattern: RegExp; withinTurns: number; outcomes?: string[] }
  | { kind: 'max_duration'; seconds: number }
  | { kind: 'outcome_in'; outcomes: string[] }
  | { kind: 'language'; language?: string; minShare: number }
  | { kind: 'within_calling_hours'; window?: HoursWindow }
  | { kind: 'not_suppressed'; exclude: string[]; profile: boolean }
  | { kind: 'judge'; command: string; repeat: number; pass: number; timeoutSeconds: number }
);

/** Where a problem is: "rules.yaml:12". */
class Located {
  constructor(readonly file: string, private readonly lines: LineCounter) {}
  line(node: Node | null | undefined): number {
    const at = node?.range?.[0];
    return at === undefined ? 1 : this.lines.linePos(at).line;
  }
}

/** Parses YAML text, refusing syntax errors with their line. */
export function parseYaml(text: string, file: string): { doc: Document; at: Located } {
  const lines = new LineCounter();
  const doc = parseDocument(text.replace(/^\uFEFF/, ''), { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0]?.line ?? 1;
    throw new UsageError(`${file}:${line}: ${first.message.split('\n')[0]}`, { hint: 'Fix the YAML; nothing was sent.' });
  }
  return { doc, at: new Located(file, lines) };
}

export function refuse(at: Located, node: Node | null | undefined, message: string, hint?: string): UsageError {
  return new UsageError(`${at.file}:${at.line(node)}: ${message}`, { hint: hint ?? 'See docs/quality.md for the rule kinds and their fields. Nothing was sent.' });
}

/**
 * The most rules one file (or one scenario) holds, and the most bytes a rules file is.
 * Real rules files hold tens of rules; a list of thousands is a generated file gone
 * wrong, and every rule is applied to every call and shown as a row of the summary.
 */
export const MAX_RULES = 500;
export const MAX_RULES_BYTES = 1024 * 1024;

/** Reads a `rules:` list (a rules file's, or a scenario's `expect:`). */
export function readRules(seq: Node | null | undefined, at: Located, what = 'rules'): Rule[] {
  if (!isSeq(seq)) throw refuse(at, seq, `${what} must be a list of rules`);
  if (seq.items.length > MAX_RULES) {
    throw refuse(at, seq, `${what} holds ${grouped(seq.items.length)} rules; at most ${grouped(MAX_RULES)} are read`,
      'Split the rules into several files and run calls check once for each. Nothing was sent.');
  }
  const rules: Rule[] = [];
  const ids = new Set<string>();
  for (const item of seq.items) {
    const rule = readRule(item as Node, at);
    if (ids.has(rule.id)) throw refuse(at, item as Node, `rule id "${rule.id}" is used twice`);
    ids.add(rule.id);
    rules.push(rule);
  }
  return rules;
}

const COMMON = ['id', 'kind', 'severity', 'where', 'description'];
const FIELDS: Record<RuleKind, string[]> = {
  first_agent_turn_matches: ['pattern'],
  never_says: ['role', 'phrases', 'patterns'],
  opt_out_honoured: ['pattern', 'within_turns', 'outcomes'],
  max_duration: ['seconds'],
  outcome_in: ['outcomes'],
  language: ['language', 'min_share'],
  within_calling_hours: ['hours'],
  not_suppressed: ['exclude', 'profile'],
  judge: ['command', 'repeat', 'pass', 'timeout_seconds'],
};

function readRule(node: Node, at: Located): Rule {
  if (!isMap(node)) throw refuse(at, node, 'each rule must be a mapping with id, kind and severity');
  const f = new Fields(node, at);
  const id = f.string('id', true)!;
  const kind = f.string('kind', true)!;
  if (!(RULE_KINDS as readonly string[]).includes(kind)) {
    throw refuse(at, f.node('kind'), `rule "${id}": unknown kind "${kind}"`, `Known kinds: ${RULE_KINDS.join(', ')}.`);
  }
  const k = kind as RuleKind;
  for (const key of f.keys()) {
    if (!COMMON.includes(key) && !FIELDS[k].includes(key)) {
      throw refuse(at, f.node(key), `rule "${id}": ${k} has no field "${key}" (it takes ${FIELDS[k].join(', ')})`);
    }
  }
  const severity = f.string('severity') ?? 'error';
  if (severity !== 'error' && severity !== 'warn') throw refuse(at, f.node('severity'), `rule "${id}": severity must be error or warn, not "${severity}"`);
  const base: Base = { id, severity, line: at.line(node) };
  const where = f.node('where');
  if (where !== undefined) base.where = readWhere(where, at, id);
  const ctx = `rule "${id}"`;
  switch (k) {
    case 'first_agent_turn_matches':
      return { ...base, kind: k, pattern: f.regex('pattern', ctx, true)! };
    case 'never_says': {
      const role = f.string('role') ?? 'agent';
      if (role !== 'agent' && role !== 'user' && role !== 'any') throw refuse(at, f.node('role'), `${ctx}: role must be agent, user or any`);
      const phrases = f.strings('phrases') ?? [];
      const patterns = (f.strings('patterns') ?? []).map((p, i) => compile(p, at, f.itemNode('patterns', i), ctx));
      if (phrases.length === 0 && patterns.length === 0) throw refuse(at, node, `${ctx}: never_says needs phrases or patterns`);
      return { ...base, kind: k, role, phrases, patterns };
    }
    case 'opt_out_honoured': {
      const outcomes = f.strings('outcomes');
      return { ...base, kind: k, pattern: f.regex('pattern', ctx, true)!, withinTurns: f.int('within_turns', 0) ?? 1, ...(outcomes ? { outcomes } : {}) };
    }
    case 'max_duration':
      return { ...base, kind: k, seconds: f.number('seconds', true)! };
    case 'outcome_in': {
      const outcomes = f.strings('outcomes');
      if (!outcomes || outcomes.length === 0) throw refuse(at, f.node('outcomes') ?? node, `${ctx}: outcome_in needs a list of outcomes`);
      return { ...base, kind: k, outcomes };
    }
    case 'language': {
      const language = f.string('language');
      const minShare = f.number('min_share') ?? 0.6;
      if (minShare > 1) throw refuse(at, f.node('min_share'), `${ctx}: min_share is a share from 0 to 1`);
      if (language !== undefined && !scriptFor(language)) throw refuse(at, f.node('language'), `${ctx}: no script known for language "${language}"`, `Known: ${Object.keys(SCRIPTS).join(', ')} (with any region, e.g. hi-IN).`);
      return { ...base, kind: k, minShare, ...(language ? { language } : {}) };
    }
    case 'within_calling_hours': {
      const hours = f.string('hours');
      if (hours === undefined) return { ...base, kind: k };
      const window = parseWindow(hours);
      if (!window) throw refuse(at, f.node('hours'), `${ctx}: hours "${hours}" is not a window`, `Use ${WINDOW_HELP}.`);
      return { ...base, kind: k, window };
    }
    case 'not_suppressed': {
      const profile = f.bool('profile') ?? true;
      return { ...base, kind: k, exclude: f.strings('exclude') ?? [], profile };
    }
    case 'judge': {
      const command = f.string('command', true)!;
      if (!command.trim()) throw refuse(at, f.node('command'), `${ctx}: command is empty`);
      const repeat = f.int('repeat', 1) ?? 1;
      const pass = f.int('pass', 1) ?? Math.floor(repeat / 2) + 1;
      if (pass > repeat) throw refuse(at, f.node('pass'), `${ctx}: pass (${pass}) is more than repeat (${repeat})`);
      return { ...base, kind: k, command, repeat, pass, timeoutSeconds: f.number('timeout_seconds') ?? 120 };
    }
  }
}

function readWhere(node: Node, at: Located, id: string): Where {
  if (!isMap(node)) throw refuse(at, node, `rule "${id}": where must be a mapping of agent, outcome, status`);
  const f = new Fields(node, at);
  const where: Where = {};
  for (const key of f.keys()) {
    if (key !== 'agent' && key !== 'outcome' && key !== 'status') throw refuse(at, f.node(key), `rule "${id}": where has no filter "${key}" (agent, outcome, status)`);
    where[key] = f.strings(key);
  }
  return where;
}

function compile(source: string, at: Located, node: Node | undefined, ctx: string): RegExp {
  try {
    return new RegExp(source, 'iu');
  } catch (err) {
    throw refuse(at, node, `${ctx}: "${source}" is not a valid regular expression (${(err as Error).message.replace(/^Invalid regular expression: /, '')})`);
  }
}

/** Typed reads of one mapping's fields, each refusal naming the field's line. */
export class Fields {
  constructor(private readonly map: YAMLMap, private readonly at: Located) {}

  keys(): string[] {
    return this.map.items.map((p) => String(isScalar(p.key) ? p.key.value : p.key));
  }

  node(key: string): Node | undefined {
    const pair = this.map.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
    return (pair?.value ?? undefined) as Node | undefined;
  }

  itemNode(key: string, i: number): Node | undefined {
    const n = this.node(key);
    return isSeq(n) ? (n.items[i] as Node) : n;
  }

  private value(key: string): unknown {
    const n = this.node(key);
    return n === undefined ? undefined : (n as Node & { toJSON(): unknown }).toJSON();
  }

  private missing(key: string): UsageError {
    return refuse(this.at, this.map, `${this.label()}${key} is missing`);
  }

  private label(): string {
    const id = this.value('id');
    return typeof id === 'string' ? `rule "${id}": ` : '';
  }

  string(key: string, required = false): string | undefined {
    const v = this.value(key);
    if (v === undefined || v === null) {
      if (required) throw this.missing(key);
      return undefined;
    }
    if (typeof v !== 'string') throw refuse(this.at, this.node(key), `${this.label()}${key} must be text, not ${describe(v)}`);
    return v;
  }

  strings(key: string): string[] | undefined {
    const v = this.value(key);
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return [v];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw refuse(this.at, this.node(key), `${this.label()}${key} must be a list of text`);
    return v as string[];
  }

  number(key: string, required = false): number | undefined {
    const v = this.value(key);
    if (v === undefined || v === null) {
      if (required) throw this.missing(key);
      return undefined;
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw refuse(this.at, this.node(key), `${this.label()}${key} must be a number, 0 or more, not ${describe(v)}`);
    return v;
  }

  int(key: string, min: number): number | undefined {
    const v = this.value(key);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw refuse(this.at, this.node(key), `${this.label()}${key} must be a whole number, ${min} or more, not ${describe(v)}`);
    return v;
  }

  bool(key: string): boolean | undefined {
    const v = this.value(key);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') throw refuse(this.at, this.node(key), `${this.label()}${key} must be true or false, not ${describe(v)}`);
    return v;
  }

  regex(key: string, ctx: string, required = false): RegExp | undefined {
    const s = this.string(key, required);
    return s === undefined ? undefined : compile(s, this.at, this.node(key), ctx);
  }
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)}`;
}

/** The script a language is written in, by its primary subtag. */
const SCRIPTS: Record<string, string> = {
  hi: 'Devanagari', mr: 'Devanagari', ne: 'Devanagari', sa: 'Devanagari', kok: 'Devanagari', mai: 'Devanagari',
  bn: 'Bengali', as: 'Bengali', ta: 'Tamil', te: 'Telugu', kn: 'Kannada', ml: 'Malayalam', gu: 'Gujarati',
  pa: 'Gurmukhi', or: 'Oriya', ur: 'Arabic', ar: 'Arabic', en: 'Latin', fr: 'Latin', de: 'Latin', es: 'Latin', pt: 'Latin', it: 'Latin',
};

export function scriptFor(language: string): string | undefined {
  return SCRIPTS[language.toLowerCase().split(/[-_]/)[0]!];
}

/** Reads a rules file's text: `rules:` at the top level. */
function parseRules(text: string, file: string): Rule[] {
  // Checked before the YAML is parsed: a parser's work and memory grow with the text.
  if (text.length > MAX_RULES_BYTES) {
    throw new UsageError(`${file}: ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MB is over the ${MAX_RULES_BYTES / 1024 / 1024} MB a rules file may be.`, {
      hint: `A rules file holds at most ${grouped(MAX_RULES)} rules; split them into several files. Nothing was sent.`,
    });
  }
  const { doc, at } = parseYaml(text, file);
  const top = doc.contents as Node | null;
  if (!isMap(top)) throw refuse(at, top, 'the file must be a mapping with a rules: list');
  const f = new Fields(top, at);
  for (const key of f.keys()) if (key !== 'rules') throw refuse(at, f.node(key), `unknown top-level key "${key}" (expected rules)`);
  const rules = readRules(f.node('rules'), at);
  if (rules.length === 0) throw refuse(at, f.node('rules') ?? top, 'the rules list is empty');
  return rules;
}

/** Reads and checks a rules file; a missing or bad file is exit 2 before any request. */
export async function loadRules(path: string, signal?: AbortSignal): Promise<Rule[]> {
  const { readUserTextOr } = await import('../util/user-file.js');
  const text = await readUserTextOr(path, { signal }, (reason) => new UsageError(`--rules ${path}: ${reason}.`));
  return parseRules(text, path);
}
