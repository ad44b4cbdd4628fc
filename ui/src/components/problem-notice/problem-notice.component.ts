import { html, LitElement, nothing, type TemplateResult } from 'lit';
import type { Problem } from '../../api/problem.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { problemNoticeStyles } from './problem-notice.styles.ts';

/**
 * Puts an API problem into words: what happened (title), why (detail) and the code to quote when
 * asking for help. Next actions go into the default slot.
 */
export class OplProblemNotice extends LitElement {
  static override styles = [sharedStyles, problemNoticeStyles];

  static override properties = {
    problem: { attribute: false },
  };

  declare problem: Problem | undefined;

  constructor() {
    super();
    this.problem = undefined;
  }

  override render(): TemplateResult | typeof nothing {
    const problem = this.problem;
    if (!problem) return nothing;
    return html`
      <div class="problem" role="alert">
        <p class="title">${problem.title}</p>
        ${problem.detail ? html`<p class="detail">${problem.detail}</p>` : nothing}
        ${problem.code || problem.status
          ? html`<p class="meta">
              ${problem.code ? html`Error code <code>${problem.code}</code>` : nothing}
              ${problem.code && problem.status ? ' · ' : nothing}
              ${problem.status ? html`HTTP status ${problem.status}` : nothing}
            </p>`
          : nothing}
        <slot></slot>
      </div>
    `;
  }
}
