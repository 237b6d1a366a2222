/**
 * The README's and docs' shell blocks, read as a person reads them: fenced ```sh blocks,
 * cut into the commands a person would paste one at a time (lines ending in `\` joined,
 * a `for … done` kept whole), each with the file and line it came from.
 *
 * A block that cannot run on a test machine says so, with the reason, on the line before
 * its fence: `<!-- not run: needs a public tunnel -->`. Every other block runs.
 */
import { spawnSync } from 'node:child_process';

export interface Command {
  /** The command as written (continuation lines joined with their newlines). */
  text: string;
  line: number;
}

export interface Block {
  file: string;
  /** Line of the opening fence (1-based). */
  line: number;
  commands: Command[];
  /** Why the block is not run, when its marker says so. */
  notRun?: string;
}

const FENCE = /^```(\w*)\s*$/;
const NOT_RUN = /^<!--\s*not run:\s*(.+?)\s*-->$/;

export function shellBlocks(file: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    if (open[1] === 'sh') {
      let j = i - 1;
      while (j >= 0 && lines[j]!.trim() === '') j--;
      const marker = j >= 0 ? NOT_RUN.exec(lines[j]!.trim()) : null;
      blocks.push({ file, line: i + 1, commands: commandsOf(lines.slice(i + 1, end), i + 2), notRun: marker?.[1] });
    }
    i = end;
  }
  return blocks;
}

/** Whether bash reads `text` as whole commands (not a `for` waiting for its `done`). */
function complete(text: string): boolean {
  // a placeholder such as <id> is a word to the reader, a redirection to bash
  return spawnSync('bash', ['-n', '-c', text.replace(/<[\w-]+>/g, 'X')], { stdio: 'ignore' }).status === 0;
}

export function commandsOf(lines: string[], firstLine: number): Command[] {
  const out: Command[] = [];
  let text = '';
  let start = 0;
  lines.forEach((raw, k) => {
    if (text === '' && (raw.trim() === '' || raw.trim().startsWith('#'))) return;
    if (text === '') start = firstLine + k;
    text += (text === '' ? '' : '\n') + raw;
    if (/\\\s*$/.test(raw)) return;
    if (!complete(text)) return;
    out.push({ text, line: start });
    text = '';
  });
  if (text !== '') out.push({ text, line: start });
  return out;
}

/** The command without its trailing comment (a `#` after a space, outside quotes). */
export function code(text: string): string {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      // a comment runs to the end of its line; a continued command goes on after it
      const eol = text.indexOf('\n', i);
      return (text.slice(0, i).trimEnd() + (eol === -1 ? '' : code(text.slice(eol)))).trimEnd();
    } else if (c === '\n') {
      // next line
    }
  }
  return text.trimEnd();
}
