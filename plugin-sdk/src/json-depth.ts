/**
 * How deeply a parsed JSON value nests (a scalar 0, `{}` or `[]` 1, `{"a":[]}` 2), counted
 * without recursion so that a hostile document cannot exhaust the stack; stops counting once
 * `limit` is passed. Values nested thousands deep are cheap to parse but overflow the stack of
 * every recursive walk after it (JSON.stringify, structured clone, PostgreSQL's jsonb), so the
 * model bounds them and the interchange import refuses them.
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
