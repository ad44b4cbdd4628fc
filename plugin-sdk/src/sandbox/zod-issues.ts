/** The first few problems zod found, as one line for an error message (paths dotted, the rest counted). */
export function issuesText(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const shown = issues.slice(0, 3).map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
  return `${shown.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}`.slice(0, 800);
}
