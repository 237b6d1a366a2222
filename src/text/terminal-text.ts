/**
 * Text that came from somewhere else (the service, a spreadsheet, a webhook sender, a
 * file) made safe to print on a terminal. A terminal obeys control characters in
 * whatever it is shown: ESC ] 0 ; … BEL sets the window title, ESC [ 2 J clears the
 * screen, the single byte 0x9b starts the same sequences as ESC [, and some terminals
 * answer queries by typing into the shell. Such characters are shown as visible
 * escapes instead: `\x1b`, `\x07`, `\x9b`, `\x7f` (lowercase hex, two digits).
 *
 * Only output for people goes through here (tables, `call get`, listen's lines, watch
 * frames, error messages). JSON, JSON lines and CSV stay exact: they are for programs.
 */

// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_ALL = /[\u0000-\u001f\u007f-\u009f]/g;
// The same, except TAB and LF: multi-line text keeps its layout.
const CONTROL_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export interface TerminalTextOptions {
  /** Keep line feeds and tabs (a transcript, a prompt, a multi-line message); CR LF becomes LF. */
  multiline?: boolean;
}

/** `text` with every C0/C1 control character (and DEL) shown as `\xHH`; idempotent. */
export function terminalSafe(text: string, options: TerminalTextOptions = {}): string {
  // Most text has none: one test, no copy.
  if (!CONTROL.test(text)) return text;
  if (options.multiline) return text.replace(/\r\n/g, '\n').replace(CONTROL_BUT_LAYOUT, hex);
  return text.replace(CONTROL_ALL, hex);
}

/** One line for a table cell or a status line: runs of line breaks and tabs become one space, the rest is escaped. */
export function terminalLine(text: string): string {
  // Line breaks and tabs are control characters too: text with none needs no work at all.
  if (!CONTROL.test(text)) return text;
  return terminalSafe(text.replace(/[ ]*[\r\n\t][\r\n\t ]*/g, ' '));
}

/** Whether `text` holds a control character other than TAB, LF and CR (what `contacts validate` warns about). */
export function hasControlCharacters(text: string): boolean {
  return CONTROL_IN_CELL.test(text);
}
/** Compiled once: a literal in the function would make a RegExp object at every call (every cell of a file). */
const CONTROL_IN_CELL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

function hex(ch: string): string {
  return `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
}
