import type { OplSnapshotHistory } from './snapshot-history.component.ts';
import { OplSnapshotsPage } from './snapshots-page.component.ts';

export { OplSnapshotsPage };

if (!customElements.get('opl-snapshots-page')) customElements.define('opl-snapshots-page', OplSnapshotsPage);

declare global {
  interface HTMLElementTagNameMap {
    'opl-snapshots-page': OplSnapshotsPage;
    'opl-snapshot-history': OplSnapshotHistory;
  }
}
