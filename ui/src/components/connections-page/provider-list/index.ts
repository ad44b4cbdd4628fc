import { OplProviderList } from './provider-list.component.ts';

export { OplProviderList };

if (!customElements.get('opl-provider-list')) customElements.define('opl-provider-list', OplProviderList);

declare global {
  interface HTMLElementTagNameMap {
    'opl-provider-list': OplProviderList;
  }
}
