/**
 * `campaign run --policy run.yaml`: the run's policy written down once, with the same
 * settings as the flags. Read strictly (an unknown key, a wrong type or a bad window is
 * exit 2 with its line and column, before any request) and turned into flag values, so
 * the flags given on the command line win over the file.
 */
import { resolve } from 'node:path';
import { isMap, isScalar, isSeq, type Document, type LineCounter } from 'yaml';
import { UsageError } from '../../errors.js';
import { parseYaml, placeOf, problemList, yamlData } from '../../util/yaml.js';
import { parseWindow, WINDOW_HELP } from '../../hours/calling-hours.js';
import { deadlineNamesZone, parseDeadline, parseRetryOn } from './policy.js';
import { BREAKER_MODES, DEFAULT_BREAKER, type BreakerMode, type BreakerSettings } from './breaker.js';
import { isObject } from '../../util/is-object.js';

/** What a policy file sets (each key only when the file has it), as the flags of the same names would. */
export interface PolicyFileValues {
  callingHours?: string[];
  waveSize?: number;
  dailyCap?: number;
  attempts?: number;
  /** Milliseconds. */
  retryAfter?: number;
  retryOn?: string[];
  deadline?: string;
  /** Absolute paths (relative to the file as written). */
  exclude?: string[];
  /** Milliseconds. */
  excludeCalledWithin?: number;
  /** The run's guardrails: the breaker's mode and thresholds, and the rate card (a path, read by the caller). */
  guardrails?: PolicyGuardrails;
}

export interface PolicyGuardrails {
  mode?: BreakerMode;
  /** Thresholds the file sets; the others keep DEFAULT_BREAKER's. */
  thresholds?: Partial<Omit<BreakerSettings, 'mode'>>;
  baselineConnectRate?: number;
  /** rate_card: the absolute path, and how messages name it ("rates.yaml (rate_card in run.yaml, line 4)"). */
  rateCard?: { path: string; label: string };
}

const KEYS = ['calling_hours', 'wave_size', 'daily_cap', 'attempts', 'retry_after', 'retry_on', 'deadline', 'exclude', 'exclude_called_within', 'breaker', 'rate_card'] as const;

/** The keys of `breaker:` as a mapping; each threshold's bounds and what it means. */
const BREAKER_KEYS = ['mode', 'baseline_connect_rate', 'connect_drop', 'failed_factor', 'failed_floor', 'threshold', 'learn_dials'] as const;
const THRESHOLDS: Record<Exclude<(typeof BREAKER_KEYS)[number], 'mode' | 'baseline_connect_rate'>, { min: number; max: number; open?: boolean; whole?: boolean; says: string }> = {
  connect_drop: { min: 0, max: 1, open: true, says: 'a share above 0 and below 1 (0.3: the breaker is built to catch connects falling to 70% of the baseline)' },
  failed_factor: { min: 1, max: 20, says: 'a number from 1 to 20 (2: failures doubling)' },
  failed_floor: { min: 0, max: 0.9, says: 'a share from 0 to 0.9 (0.1: failures rising by 10 points at least)' },
  threshold: { min: 2, max: 50, says: 'the evidence in nats at which the breaker trips, from 2 to 50 (default 12; lower trips sooner and more often for nothing)' },
  learn_dials: { min: 20, max: 100_000, whole: true, says: 'a whole number of dials from 20 to 100,000 (default 200)' },
};

type Path = Array<string | number>;

interface Problem {
  path: Path;
  message: string;
  /** Point at the key rather than its value (an unknown key). */
  atKey?: boolean;
}

export interface PolicyFileOptions {
  /** Reads 2h or 7d; undefined when the text is not a span. */
  span: (v: string) => number | undefined;
  /** For a deadline, which must lie ahead. */
  now: number;
  /** The file's folder: exclude files are relative to it. */
  dir: string;
}

/** Parses the text of a policy file. `file` is the path as the user wrote it, named in every message. */
export function parsePolicyFile(file: string, text: string, { span, now, dir }: PolicyFileOptions): PolicyFileValues {
  const { doc, lines, problems: syntax } = parseYaml(text);
  if (syntax.length) throw invalid(file, syntax);
  const read = yamlData(doc);
  if (read.problem !== undefined) throw invalid(file, [read.problem]);
  const data = read.data;
  if (data === null || data === undefined) throw invalid(file, ['the file is empty: write the policy as keys such as wave_size: 100']);
  if (!isObject(data)) throw invalid(file, [locate(doc, lines, { path: [], message: 'the policy is a mapping of keys (calling_hours:, wave_size: …), not a list or a single value' }).text]);

  const problems: Problem[] = [];
  const out: PolicyFileValues = {};
  for (const key of Object.keys(data)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      problems.push({ path: [key], atKey: true, message: `unknown key (the keys are ${KEYS.join(', ')})` });
    }
  }
  const v = data;
  if (v.calling_hours !== undefined) {
    const hours = callingHours(v.calling_hours, problems);
    if (hours) out.callingHours = hours;
  }
  for (const [key, field] of [['wave_size', 'waveSize'], ['daily_cap', 'dailyCap'], ['attempts', 'attempts']] as const) {
    if (v[key] === undefined) continue;
    const n = v[key];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) problems.push({ path: [key], message: `must be a whole number of 1 or more, not ${shown(n)}` });
    else if (key === 'wave_size' && n > 10_000) problems.push({ path: [key], message: 'is at most 10,000: a wave is one campaign, and a campaign holds at most 10,000 contacts' });
    else out[field] = n;
  }
  for (const [key, field] of [['retry_after', 'retryAfter'], ['exclude_called_within', 'excludeCalledWithin']] as const) {
    if (v[key] === undefined) continue;
    const ms = typeof v[key] === 'string' ? span(v[key]) : undefined;
    if (ms === undefined) problems.push({ path: [key], message: `must be a span such as 2h, 90m, 7d or 2w, not ${shown(v[key])}` });
    else out[field] = ms;
  }
  if (v.retry_on !== undefined) {
    const list = stringList(v.retry_on, ['retry_on'], problems, true);
    if (list) {
      let ok = true;
      list.forEach((s, i) => {
        try {
          parseRetryOn([s]);
        } catch {
          ok = false;
          problems.push({ path: Array.isArray(v.retry_on) ? ['retry_on', i] : ['retry_on'], message: `"${s}" is not a status a contact ends in (use no_answer, failed or completed)` });
        }
      });
      if (ok) out.retryOn = list;
    }
  }
  if (v.deadline !== undefined) {
    if (typeof v.deadline !== 'string') {
      problems.push({ path: ['deadline'], message: `must be an ISO 8601 time in quotes or a span such as 36h, not ${shown(v.deadline)}` });
    } else {
      try {
        parseDeadline(v.deadline, now, span);
        if (span(v.deadline) === undefined && !deadlineNamesZone(v.deadline)) {
          throw new UsageError(`"${v.deadline}" names no zone: a file may be run from any zone, so add Z or an offset such as +05:30.`);
        }
        out.deadline = v.deadline;
      } catch (err) {
        const why = err instanceof UsageError ? err.message.replace(/^--deadline /, '').replace(/\.$/, '') : String(err);
        problems.push({ path: ['deadline'], message: `${why}; use an ISO 8601 time such as "2026-03-01T18:00Z" or a span from now such as 36h` });
      }
    }
  }
  if (v.exclude !== undefined) {
    const list = stringList(v.exclude, ['exclude'], problems, false);
    // Relative to the policy file, wherever the run is started from.
    if (list) out.exclude = list.map((f) => resolve(dir, f));
  }
  const guard: PolicyGuardrails = {};
  if (v.breaker !== undefined) breaker(v.breaker, problems, guard);
  if (v.rate_card !== undefined) {
    if (typeof v.rate_card !== 'string' || v.rate_card.trim() === '') {
      problems.push({ path: ['rate_card'], message: `must be the path of a rate card file (currency: and rates:), relative to this file, not ${shown(v.rate_card)}` });
    } else {
      const { offset } = locate(doc, lines, { path: ['rate_card'], message: '' });
      const line = offset === Number.MAX_SAFE_INTEGER ? '' : `, line ${lines.linePos(offset).line}`;
      guard.rateCard = { path: resolve(dir, v.rate_card), label: `${v.rate_card} (rate_card in ${file}${line})` };
    }
  }
  if (Object.keys(guard).length > 0) out.guardrails = guard;
  // In the order of the file, as a reader fixes them.
  if (problems.length) throw invalid(file, problems.map((p) => locate(doc, lines, p)).sort((a, b) => a.offset - b.offset).map((p) => p.text));
  return out;
}

/**
 * calling_hours: "09:00-21:00"; or a mapping { default: 09:00-21:00, US: 08:00-21:00 };
 * or a list like the flag's values ["09:00-21:00", "US=08:00-21:00"].
 */
function callingHours(value: unknown, problems: Problem[]): string[] | undefined {
  const out: string[] = [];
  const before = problems.length;
  const window = (text: unknown, path: Path): string | undefined => {
    if (typeof text !== 'string') {
      problems.push({ path, message: `must be a window of hours, ${WINDOW_HELP}, not ${shown(text)}` });
      return undefined;
    }
    if (!parseWindow(text)) problems.push({ path, message: `"${text}" is not a window of hours: use ${WINDOW_HELP}` });
    return text;
  };
  if (typeof value === 'string') {
    const m = /^\s*([A-Za-z]{2})\s*=\s*(.+)$/.exec(value);
    const w = window(m ? m[2]! : value, ['calling_hours']);
    if (w !== undefined) out.push(value);
  } else if (Array.isArray(value)) {
    value.forEach((entry, i) => {
      const m = typeof entry === 'string' ? /^\s*([A-Za-z]{2})\s*=\s*(.+)$/.exec(entry) : null;
      const w = window(m ? m[2]! : entry, ['calling_hours', i]);
      if (w !== undefined) out.push(entry as string);
    });
  } else if (isObject(value)) {
    // The default first, so that a country's window is not overwritten by it.
    const keys = Object.keys(value).sort((a, b) => Number(b === 'default') - Number(a === 'default'));
    for (const key of keys) {
      if (key !== 'default' && !/^[A-Za-z]{2}$/.test(key)) {
        problems.push({ path: ['calling_hours', key], atKey: true, message: `"${key}" is neither default nor a two-letter country code such as US, IN or GB` });
        continue;
      }
      const w = window(value[key], ['calling_hours', key]);
      if (w !== undefined) out.push(key === 'default' ? w : `${key}=${w}`);
    }
  } else {
    problems.push({ path: ['calling_hours'], message: `must be a window (09:00-21:00), a mapping of default and country codes to windows, or a list of windows, not ${shown(value)}` });
  }
  return problems.length === before ? out : undefined;
}

/** breaker: pause | warn | off, or a mapping of mode, baseline_connect_rate and thresholds. */
function breaker(value: unknown, problems: Problem[], guard: PolicyGuardrails): void {
  const modes = BREAKER_MODES.join(', ');
  const mode = (m: unknown, path: Path) => {
    if (typeof m === 'string' && (BREAKER_MODES as readonly string[]).includes(m)) guard.mode = m as BreakerMode;
    // YAML 1.1 readers take a bare off for false: say what to write.
    else problems.push({ path, message: `must be one of ${modes}, not ${shown(m)}` });
  };
  if (!isObject(value)) {
    if (typeof value === 'string') mode(value, ['breaker']);
    else problems.push({ path: ['breaker'], message: `must be a mode (${modes}) or a mapping of mode and thresholds (${BREAKER_KEYS.join(', ')}), not ${shown(value)}` });
    return;
  }
  for (const key of Object.keys(value)) {
    if (!(BREAKER_KEYS as readonly string[]).includes(key)) problems.push({ path: ['breaker', key], atKey: true, message: `unknown key (the keys of breaker are ${BREAKER_KEYS.join(', ')})` });
  }
  if (value.mode !== undefined) mode(value.mode, ['breaker', 'mode']);
  const rate = value.baseline_connect_rate;
  if (rate !== undefined) {
    if (typeof rate !== 'number' || !(rate > 0 && rate <= 1)) problems.push({ path: ['breaker', 'baseline_connect_rate'], message: `must be a share above 0 and at most 1, such as 0.52, not ${shown(rate)}` });
    else guard.baselineConnectRate = rate;
  }
  const thresholds: Partial<Omit<BreakerSettings, 'mode'>> = {};
  for (const [key, t] of Object.entries(THRESHOLDS) as Array<[keyof typeof THRESHOLDS, (typeof THRESHOLDS)[keyof typeof THRESHOLDS]]>) {
    const n = value[key];
    if (n === undefined) continue;
    const ok = typeof n === 'number' && Number.isFinite(n) && (t.open ? n > t.min && n < t.max : n >= t.min && n <= t.max) && (!t.whole || Number.isInteger(n));
    if (!ok) problems.push({ path: ['breaker', key], message: `must be ${t.says}, not ${shown(n)}` });
    else thresholds[key] = n as number;
  }
  if (Object.keys(thresholds).length > 0) guard.thresholds = thresholds;
}

function stringList(value: unknown, path: Path, problems: Problem[], commas: boolean): string[] | undefined {
  if (typeof value === 'string') return commas ? value.split(',').map((s) => s.trim()).filter(Boolean) : [value];
  if (Array.isArray(value)) {
    const before = problems.length;
    value.forEach((s, i) => {
      if (typeof s !== 'string' || s.trim() === '') problems.push({ path: [...path, i], message: `must be text, not ${shown(s)}` });
    });
    return problems.length === before ? (value as string[]) : undefined;
  }
  problems.push({ path, message: `must be a list of text, not ${shown(value)}` });
  return undefined;
}

function shown(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `"${v}"`;
  return String(v);
}

/** `wave_size: must be …` → `… (line 3, column 13)`, walking the document to the node. */
function locate(doc: Document, lines: LineCounter, p: Problem): { text: string; offset: number } {
  let node: unknown = doc.contents;
  let offset: number | undefined = (node as { range?: [number, number, number] } | null)?.range?.[0];
  for (let i = 0; i < p.path.length; i++) {
    const step = p.path[i]!;
    const last = i === p.path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((it) => (isScalar(it.key) ? String(it.key.value) : String(it.key)) === String(step));
      if (!pair) break;
      const target = last && p.atKey ? pair.key : pair.value ?? pair.key;
      offset = (target as { range?: [number, number, number] } | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof step === 'number') {
      const item = node.items[step];
      offset = (item as { range?: [number, number, number] } | null)?.range?.[0] ?? offset;
      node = item;
    } else {
      break;
    }
  }
  const where = p.path.map((s) => (typeof s === 'number' ? `[${s}]` : s)).join('.').replace(/\.\[/g, '[');
  const text = where ? `${where}: ${p.message}` : p.message;
  if (offset === undefined) return { text, offset: Number.MAX_SAFE_INTEGER };
  return { text: `${text} ${placeOf(lines, offset)}`, offset };
}

function invalid(file: string, problems: string[]): UsageError {
  return new UsageError(`${file} is not a valid run policy, so nothing was sent:\n${problemList(problems)}`, {
    hint: '`voicectl schema --run-policy` prints the JSON Schema of the file (see docs/campaign-run.md).',
  });
}

/** The JSON Schema of a policy file, for editors (`voicectl schema --run-policy`). */
export function policySchema(): Record<string, unknown> {
  const window = { type: 'string', description: `${WINDOW_HELP}.`, examples: ['09:00-21:00'] };
  const spanText = (description: string, example: string) => ({ type: 'string', pattern: '^\\s*\\d+(\\.\\d+)?\\s*(m|min|h|d|w)\\s*$', description, examples: [example] });
  const positive = (description: string) => ({ type: 'integer', minimum: 1, description });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'voicectl campaign run --policy file',
    description: 'The policy of `voicectl campaign run`, with the settings of its flags; a flag given on the command line wins over the file.',
    type: 'object',
    additionalProperties: false,
    properties: {
      calling_hours: {
        description: 'Local-time windows for dialing: one window for all, a mapping of default and country codes (US, IN, GB) to windows, or a list like the flag\'s values (09:00-21:00, US=08:00-21:00).',
        oneOf: [
          window,
          { type: 'object', additionalProperties: false, patternProperties: { '^(default|[A-Za-z]{2})$': window } },
          { type: 'array', items: { type: 'string', examples: ['09:00-21:00', 'US=08:00-21:00'] } },
        ],
      },
      wave_size: { ...positive('The most contacts in one wave (default 500): the only concurrency lever the API allows.'), maximum: 10_000 },
      daily_cap: positive('The most contacts dialed per day (in your zone, --tz) across all waves.'),
      attempts: positive('Dial attempts per contact, the first included (default 1).'),
      retry_after: spanText('Wait before another attempt (default 2h).', '2h'),
      retry_on: {
        description: 'Statuses that earn another attempt (default no_answer, failed); a do_not_call outcome never does.',
        oneOf: [
          { type: 'string', examples: ['no_answer,failed'] },
          { type: 'array', items: { type: 'string', enum: ['no_answer', 'failed', 'completed'] } },
        ],
      },
      deadline: { type: 'string', description: 'Release no wave after this: an ISO 8601 time with Z or an offset, quoted, or a span from the start such as 36h.', examples: ['2026-03-01T18:00Z', '36h'] },
      exclude: {
        description: 'Files of numbers to leave out (CSV or .xlsx with a phone column, or one number a line), relative to the policy file; added to --exclude.',
        oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
      },
      exclude_called_within: spanText('Leave out numbers with a call started in this span.', '7d'),
      breaker: {
        description: 'The answer-rate breaker (docs/campaign-run.md, "Guardrails"): a mode, or a mapping of the mode, the baseline and the thresholds; --breaker and --baseline-connect-rate win over it.',
        oneOf: [
          { type: 'string', enum: [...BREAKER_MODES], description: 'pause (default): pause the run, exit 7; warn: say so and go on; off.' },
          {
            type: 'object',
            additionalProperties: false,
            properties: {
              mode: { type: 'string', enum: [...BREAKER_MODES] },
              baseline_connect_rate: { type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'The connect rate to compare with (default: the agent\'s recent calls, else the run\'s first dials).' },
              ...Object.fromEntries(Object.entries(THRESHOLDS).map(([k, t]) => [k, {
                type: t.whole ? 'integer' : 'number',
                ...(t.open ? { exclusiveMinimum: t.min, exclusiveMaximum: t.max } : { minimum: t.min, maximum: t.max }),
                default: DEFAULT_BREAKER[k as keyof typeof THRESHOLDS],
                description: `${t.says[0]!.toUpperCase()}${t.says.slice(1)}.`,
              }])),
            },
          },
        ],
      },
      rate_card: { type: 'string', description: 'Your rate card (currency: and rates:), relative to the policy file; --rate-card wins over it, and it wins over the profile\'s rate_card.', examples: ['rates.yaml'] },
    },
  };
}

export function policySchemaText(): string {
  return `${JSON.stringify(policySchema(), null, 2)}\n`;
}
