import { OplPlaylistBrowser } from './playlist-browser.component.ts';

export { OplPlaylistBrowser };

if (!customElements.get('opl-playlist-browser')) customElements.define('opl-playlist-browser', OplPlaylistBrowser);

declare global {
  interface HTMLElementTagNameMap {
    'opl-playlist-browser': OplPlaylistBrowser;
  }
}
