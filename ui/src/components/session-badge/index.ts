import { OplSessionBadge } from './session-badge.component.ts';

export { OplSessionBadge };

if (!customElements.get('opl-session-badge')) customElements.define('opl-session-badge', OplSessionBadge);

declare global {
  interface HTMLElementTagNameMap {
    'opl-session-badge': OplSessionBadge;
  }
}
