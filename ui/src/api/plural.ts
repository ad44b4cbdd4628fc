/** "1 playlist", "2,500 playlists": a count and its noun, in English. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}
