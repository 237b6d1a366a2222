/**
 * Reading a YAML file a user wrote (voicectl.yaml, a `campaign run` policy): YAML 1.2
 * with unique keys, a leading byte-order mark ignored, aliases capped, and each problem
 * placed as "(line L, column C)" so the user finds it. What the data must be is the
 * caller's; every problem is reported at once, before any request is sent.
 */
import { LineCounter, parseDocument, type Document, type ScalarTag } from 'yaml';

/** Aliases one file may expand: enough for anchors reused by hand, far from an exponential "billion laughs". */
export const MAX_ALIASES = 100;

export interface YamlFile {
  doc: Document;
  lines: LineCounter;
  /** Syntax errors and warnings, each placed. */
  problems: string[];
}

export function parseYaml(text: string, customTags: ScalarTag[] = []): YamlFile {
  const lines = new LineCounter();
  const doc = parseDocument(text.replace(/^\uFEFF/, ''), { customTags, uniqueKeys: true, lineCounter: lines, prettyErrors: false });
  const problems = [...doc.errors, ...doc.warnings].map((e) => {
    const at = e.linePos?.[0] ?? lines.linePos(e.pos[0]);
    return `${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+$/, '')} (line ${at.line}, column ${at.col})`;
  });
  return { doc, lines, problems };
}

/**
 * The document as plain data, or why it cannot be: yaml throws for an alias with no
 * anchor and for aliases that expand past MAX_ALIASES (an alias bomb).
 */
export function yamlData(doc: Document): { data: unknown; problem?: undefined } | { problem: string } {
  try {
    return { data: doc.toJS({ maxAliasCount: MAX_ALIASES }) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const unresolved = /^Unresolved alias[^:]*: (.*)$/.exec(message);
    if (unresolved) return { problem: `*${unresolved[1]} is an alias with no anchor &${unresolved[1]} before it` };
    if (/alias count/i.test(message)) return { problem: `its aliases expand to more than ${MAX_ALIASES} copies (a YAML "billion laughs"); write the values out` };
    return { problem: message };
  }
}

/** "(line L, column C)" of an offset in the text. */
export function placeOf(lines: LineCounter, offset: number): string {
  const { line, col } = lines.linePos(offset);
  return `(line ${line}, column ${col})`;
}

/** The problems of a file as indented lines under its first sentence, at most 12 of them. */
export function problemList(problems: string[]): string {
  const shown = problems.slice(0, 12).map((p) => `  ${p}`).join('\n');
  const more = problems.length > 12 ? `\n  … and ${problems.length - 12} more` : '';
  return `${shown}${more}`;
}
