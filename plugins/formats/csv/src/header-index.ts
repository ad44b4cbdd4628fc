/**
 * Header names → cell positions, matched case-insensitively with surrounding spaces ignored, so
 * `Track Name`, `track name ` and `TRACK NAME` are one column. The first column of a name wins.
 */
export class HeaderIndex {
  readonly #positions = new Map<string, number>();
  readonly width: number;

  constructor(names: readonly string[]) {
    this.width = names.length;
    for (const [position, name] of names.entries()) {
      const key = normalizeName(name);
      if (key !== '' && !this.#positions.has(key)) this.#positions.set(key, position);
    }
  }

  /** The position of the first of `names` present, or undefined. */
  find(...names: readonly string[]): number | undefined {
    for (const name of names) {
      const position = this.#positions.get(name);
      if (position !== undefined) return position;
    }
    return undefined;
  }

  has(name: string): boolean {
    return this.#positions.has(name);
  }
}

export function normalizeName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}
