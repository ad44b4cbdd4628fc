/** A value quoted for a message, cut so a huge line never makes a huge message. */
export function shown(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}
