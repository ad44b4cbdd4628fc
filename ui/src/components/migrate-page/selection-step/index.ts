import { OplSelectionStep } from './selection-step.component.ts';

export { OplSelectionStep };

if (!customElements.get('opl-selection-step')) customElements.define('opl-selection-step', OplSelectionStep);

declare global {
  interface HTMLElementTagNameMap {
    'opl-selection-step': OplSelectionStep;
  }
}
