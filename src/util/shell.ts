/** One shell word: as is when safe, otherwise single-quoted (for commands printed for a person to run). */
export function shellQuote(s: string): string {
  if (s !== '' && /^[A-Za-z0-9_./:@%+=,-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
