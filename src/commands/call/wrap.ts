/** Word-wraps to `width` columns (no wrapping without a width); over-long words are cut. */
export function wrap(text: string, width: number | undefined): string[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!width || flat.length <= width) return [flat];
  const lines: string[] = [];
  let line = '';
  for (let word of flat.split(' ')) {
    while (word.length > width) {
      if (line) {
        lines.push(line);
        line = '';
      }
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
