import { OplJobDetail } from './job-detail.component.ts';

export { OplJobDetail };

if (!customElements.get('opl-job-detail')) customElements.define('opl-job-detail', OplJobDetail);

declare global {
  interface HTMLElementTagNameMap {
    'opl-job-detail': OplJobDetail;
  }
}
