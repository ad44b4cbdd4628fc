import { html, type TemplateResult } from 'lit';
import type { Problem } from '../../api/problem.ts';
import { accessHint } from './access-hint.ts';
import './index.ts';

/**
 * What a page shows when what it shows could not be read: the problem, the sign-in hint when the
 * engine asked for one, and a Try again button that reads it again.
 */
export function loadFailedNotice(problem: Problem, retry: () => void): TemplateResult {
  return html`<opl-problem-notice .problem=${problem}>${accessHint(problem)}
    <p><button type="button" @click=${retry}>Try again</button></p></opl-problem-notice>`;
}
