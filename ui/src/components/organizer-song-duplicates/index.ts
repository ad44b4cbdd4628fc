import { OplOrganizerSongDuplicates } from './organizer-song-duplicates.component.ts';

export { OplOrganizerSongDuplicates };

if (!customElements.get('opl-organizer-song-duplicates')) customElements.define('opl-organizer-song-duplicates', OplOrganizerSongDuplicates);

declare global {
  interface HTMLElementTagNameMap {
    'opl-organizer-song-duplicates': OplOrganizerSongDuplicates;
  }
}
