import { html, nothing, type TemplateResult } from 'lit';
import { ADMIN_NOT_CONFIGURED, needsAdminToken } from '../../api/admin-token.ts';
import type { Problem } from '../../api/problem.ts';
import { hrefFor } from '../../router/route.ts';

/**
 * The next step after a 401 or 403 on a page that is not the sign-in page itself: sign in on
 * Settings. Goes into the slot of `<opl-problem-notice>`; nothing for any other problem, nor when
 * signing in cannot help (a hosted admin token, admin routes switched off: the detail says what to do).
 */
export function accessHint(problem: Problem): TemplateResult | typeof nothing {
  if (needsAdminToken(problem) || problem.code === ADMIN_NOT_CONFIGURED) return nothing;
  if (problem.status === 401) {
    return html`<p class="access-hint">
      This browser has no owner session, or it has ended. Sign in with the owner secret on
      <a href=${hrefFor('settings')}>Settings</a>, then try again.
    </p>`;
  }
  if (problem.status === 403) {
    return html`<p class="access-hint">
      This browser may not do this. Check how you are signed in on <a href=${hrefFor('settings')}>Settings</a>, or ask the
      administrator of this engine.
    </p>`;
  }
  return nothing;
}
