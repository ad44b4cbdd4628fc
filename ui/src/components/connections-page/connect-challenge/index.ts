import { OplConnectChallenge } from './connect-challenge.component.ts';

export { OplConnectChallenge };

if (!customElements.get('opl-connect-challenge')) customElements.define('opl-connect-challenge', OplConnectChallenge);

declare global {
  interface HTMLElementTagNameMap {
    'opl-connect-challenge': OplConnectChallenge;
  }
}
