import { describe, expect, it } from 'vitest';
import { IssueCollector, MAX_LISTED_ISSUES } from '../../../plugin-sdk/src/format-kit/issue-collector.ts';

describe('IssueCollector', () => {
  it('records issues with their severity and column', () => {
    const issues = new IssueCollector();
    issues.add(1, 'a', 'first');
    issues.warn(2, 'b', 'second', 3);
    issues.error(null, 'c', 'third');
    expect(issues.issues()).toEqual([
      { line: 1, column: null, code: 'a', message: 'first', severity: 'error' },
      { line: 2, column: 3, code: 'b', message: 'second', severity: 'warning' },
      { line: null, column: null, code: 'c', message: 'third', severity: 'error' },
    ]);
  });

  it('lists the first 200 issues, then one summary', () => {
    const issues = new IssueCollector();
    for (let line = 1; line <= 1_000; line++) issues.warn(line, 'bad', 'bad line');
    const listed = issues.issues();
    expect(listed).toHaveLength(MAX_LISTED_ISSUES + 1);
    expect(listed.at(-1)).toEqual({ line: null, column: null, code: 'too_many_issues', message: '800 more issues were found but not listed (only the first 200 are)', severity: 'warning' });
  });

  it('takes another limit and says "was" for one', () => {
    const issues = new IssueCollector(1);
    issues.warn(1, 'x', 'y');
    issues.warn(2, 'x', 'y');
    expect(issues.issues().at(-1)?.message).toBe('1 more issue was found but not listed (only the first 1 are)');
  });

  it('cuts long messages', () => {
    const issues = new IssueCollector();
    issues.warn(1, 'x', 'm'.repeat(5_000));
    expect(issues.issues()[0]?.message).toHaveLength(1_000);
  });
});
