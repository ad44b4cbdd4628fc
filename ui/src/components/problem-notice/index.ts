import { OplProblemNotice } from './problem-notice.component.ts';

export { OplProblemNotice };

if (!customElements.get('opl-problem-notice')) customElements.define('opl-problem-notice', OplProblemNotice);

declare global {
  interface HTMLElementTagNameMap {
    'opl-problem-notice': OplProblemNotice;
  }
}
