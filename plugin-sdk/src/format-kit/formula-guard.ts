/**
 * Spreadsheet formula guard (SPEC "Export formats", rule 2): a cell whose first meaningful
 * character could start a formula is written with a leading apostrophe, which spreadsheets treat
 * as "this is text" and do not display.
 *
 * Triggers are `=`, `+`, `-` and `@` (also after leading whitespace, which spreadsheets skip), and a
 * tab or carriage return as the very first character (some import paths treat those as a cell
 * break and evaluate what follows).
 *
 * Reading must undo exactly what writing did, or round trips would change values: a value that
 * legitimately starts with an apostrophe ("'Til Tuesday") is written unchanged, so the reader
 * cannot strip every leading apostrophe. The rule that keeps the mapping reversible:
 *   needsGuard(v) = startsFormula(v) || (v starts with "'" && needsGuard(v without it))
 * writing prefixes one apostrophe exactly when needsGuard(v); reading removes one exactly when
 * the rest needsGuard. A value such as "'=x" is therefore written as "''=x" and read back intact.
 */

const FORMULA_STARTERS = new Set(['=', '+', '-', '@']);
const APOSTROPHE = "'";

function startsFormula(value: string): boolean {
  const first = value.charAt(0);
  if (first === '\t' || first === '\r') return true;
  const meaningful = value.trimStart().charAt(0);
  return FORMULA_STARTERS.has(meaningful);
}

export function needsFormulaGuard(value: string): boolean {
  let rest = value;
  // Iterative form of the recursive rule above, so a long run of apostrophes cannot blow the stack.
  while (!startsFormula(rest)) {
    if (!rest.startsWith(APOSTROPHE)) return false;
    rest = rest.slice(1);
  }
  return true;
}

export function guardFormula(value: string): string {
  return needsFormulaGuard(value) ? APOSTROPHE + value : value;
}

export function unguardFormula(cell: string): string {
  return cell.startsWith(APOSTROPHE) && needsFormulaGuard(cell.slice(1)) ? cell.slice(1) : cell;
}
