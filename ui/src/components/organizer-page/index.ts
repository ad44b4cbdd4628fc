import { OplOrganizerPage } from './organizer-page.component.ts';

export { OplOrganizerPage };

if (!customElements.get('opl-organizer-page')) customElements.define('opl-organizer-page', OplOrganizerPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-organizer-page': OplOrganizerPage;
  }
}
