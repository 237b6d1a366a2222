/** What a terminal would show: the text with cursor movement and colours applied, roughly. */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

/**
 * Replays the output on a tiny screen model (lines, cursor up, clear line/below), so a
 * test can assert on the final screen rather than on every frame ever drawn.
 */
export function finalScreen(raw: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  const re = /\x1b\[([0-9;?]*)([A-Za-z])|\r|\n|[^\x1b\r\n]+/g;
  for (const m of raw.matchAll(re)) {
    const tok = m[0];
    if (m[2]) {
      const n = Number(m[1]) || 1;
      if (m[2] === 'A') row = Math.max(0, row - n);
      else if (m[2] === 'K') lines[row] = lines[row]!.slice(0, col);
      else if (m[2] === 'J') {
        lines.length = row + 1;
        lines[row] = lines[row]!.slice(0, col);
      }
      continue;
    }
    if (tok === '\r') col = 0;
    else if (tok === '\n') {
      row++;
      col = 0;
      if (lines.length <= row) lines.push('');
    } else {
      const line = lines[row]!.padEnd(col);
      lines[row] = line.slice(0, col) + tok + line.slice(col + tok.length);
      col += tok.length;
    }
  }
  return lines;
}
