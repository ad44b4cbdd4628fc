import { OplReviewItem } from './review-item.component.ts';

export { OplReviewItem };

if (!customElements.get('opl-review-item')) customElements.define('opl-review-item', OplReviewItem);

declare global {
  interface HTMLElementTagNameMap {
    'opl-review-item': OplReviewItem;
  }
}
