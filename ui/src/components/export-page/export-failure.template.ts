import { html, nothing, type TemplateResult } from 'lit';
import type { ExportFailure } from '../../api/exports.ts';
import { hrefFor } from '../../router/route.ts';
import '../problem-notice/index.ts';
import { formatRemaining } from './retry-wait.ts';

/**
 * A refused export in words: the engine's problem, the next steps, and the one action that helps
 * (reconnect on Connections, sign in on Settings, import again, or try again). `importHere`: shown
 * on the Import page itself, which needs no link to itself. `retryIn`: the seconds still to wait
 * before trying again, from a page that counts the engine's Retry-After down (see retry-wait.ts);
 * while above 0, Try again is held back and says how long is left.
 */
export function exportFailureNotice(failure: ExportFailure, retry: () => void, options: { readonly importHere?: boolean; readonly retryIn?: number } = {}): TemplateResult {
  const action = failure.action;
  const waiting = (options.retryIn ?? 0) > 0;
  // Focusable (not in the Tab order) so a page can move focus onto the words after a refusal.
  return html`<opl-problem-notice tabindex="-1" .problem=${failure.problem} data-testid="export-failure" data-code=${failure.problem.code ?? ''} data-reason=${failure.reason ?? ''}>
    ${failure.nextSteps.length > 0 ? html`<ul class="next-steps" data-testid="next-steps">${failure.nextSteps.map((step) => html`<li>${step}</li>`)}</ul>` : nothing}
    ${action.kind === 'reconnect' ? html`<p class="next-action"><a href=${hrefFor('connections')} data-action="reconnect">Reconnect the account on Connections</a></p>` : nothing}
    ${action.kind === 'sign-in' ? html`<p class="next-action"><a href=${hrefFor('settings')} data-action="sign-in">Sign in on Settings</a></p>` : nothing}
    ${action.kind === 'import-again' && !options.importHere ? html`<p class="next-action"><a href=${hrefFor('import')} data-action="import">Go to Import</a></p>` : nothing}
    ${action.kind === 'retry'
      ? html`<p class="next-action">
          ${options.retryIn === undefined
            ? html`<button type="button" data-action="retry" @click=${retry}>Try again${action.afterSeconds !== null ? html`<span class="visually-hidden"> (the engine asked to wait ${action.afterSeconds} seconds)</span>` : nothing}</button>`
            : // aria-disabled rather than disabled: the button keeps its place in the Tab order, so the time
              // left can be read on it; the page's retry ignores presses until the wait is over.
              html`<button type="button" data-action="retry" aria-disabled=${waiting ? 'true' : 'false'} @click=${retry}>${waiting ? `Try again in ${formatRemaining(options.retryIn ?? 0)}` : 'Try again'}</button>`}
        </p>`
      : nothing}
  </opl-problem-notice>`;
}
