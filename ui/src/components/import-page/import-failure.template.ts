import { html, nothing, type TemplateResult } from 'lit';
import { issueLocation, type ImportFailure, type ImportIssue } from '../../api/imports.ts';
import { hrefFor } from '../../router/route.ts';
import { nextStepsList } from '../kit/index.ts';
import { accessHint } from '../problem-notice/access-hint.ts';

function issueList(issues: readonly ImportIssue[], testId: string): TemplateResult {
  return html`<ul class="issues" data-testid=${testId}>
    ${issues.map(
      (issue) => html`<li data-line=${issue.line ?? ''} data-code=${issue.code}>
        <span class="where">${issueLocation(issue)}</span>
        <span class="message">${issue.message}</span>
        <code class="secondary">${issue.code}</code>
      </li>`,
    )}
  </ul>`;
}

/** Line-level issues, errors (rows skipped) apart from warnings (rows kept), each under its own heading. */
export function issueLists(errors: readonly ImportIssue[], warnings: readonly ImportIssue[], idPrefix: string): TemplateResult {
  return html`${errors.length > 0
    ? html`<h4 id=${`${idPrefix}-errors`}>Errors, rows skipped <span class="count">(${errors.length})</span></h4>
        ${issueList(errors, 'issue-errors')}`
    : nothing}
  ${warnings.length > 0
    ? html`<h4 id=${`${idPrefix}-warnings`}>Warnings, rows kept <span class="count">(${warnings.length})</span></h4>
        ${issueList(warnings, 'issue-warnings')}`
    : nothing}`;
}

/** A refused import, shown next to the control that caused it (`near`): why, the issues, what to do next. */
export function importFailureNotice(failure: ImportFailure, near: string): TemplateResult {
  return html`<opl-problem-notice .problem=${failure.problem} data-testid="import-problem">
    <div class="failure-more">
      ${failure.reason ? html`<p class="reason">Reason: <code>${failure.reason}</code></p>` : nothing}
      ${failure.issues ? issueLists(failure.issues.errors, failure.issues.warnings, `${near}-failure`) : nothing}
      ${nextStepsList(failure.nextSteps)}
      ${failure.connect
        ? html`<p><a class="button-link" href=${hrefFor('connections')} data-provider=${failure.connect.provider}
              >Connect a ${failure.connect.displayName} account</a
            ></p>`
        : nothing}
      ${failure.reconnect
        ? html`<p><a class="button-link" href=${hrefFor('connections')} data-provider=${failure.reconnect.provider} data-account=${failure.reconnect.accountId ?? ''}
              >Reconnect the ${failure.reconnect.displayName} account</a
            ></p>`
        : nothing}
      ${accessHint(failure.problem)}
    </div>
  </opl-problem-notice>`;
}
