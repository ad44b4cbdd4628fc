/** Blank lines and `#` comments carry no rows in either the v1 layout or a plain list. */
export function isSkippable(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === '' || trimmed.startsWith('#');
}
