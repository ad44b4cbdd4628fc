import type { PropertyDeclarations } from 'lit';
import { EMPTY_SELECTION, type MigrationSource, type SelectionDraft } from '../../api/migrations.ts';
import { OplPage } from '../kit/index.ts';

/**
 * A page whose first two steps are the source picker and the selection step (Migrate, Export): the
 * import another page handed over, the chosen source and what of it is chosen. A new source
 * starts an empty selection, since the old one names another source's playlists.
 */
export class OplSourceSelectionPage extends OplPage {
  static override properties: PropertyDeclarations = {
    _handedImportId: { state: true },
    _source: { state: true },
    _selection: { state: true },
  };

  /** An import the Import page handed over; the source picker starts with it chosen. */
  declare _handedImportId: string;
  declare _source: MigrationSource | undefined;
  declare _selection: SelectionDraft;

  constructor() {
    super();
    this._handedImportId = '';
    this._source = undefined;
    this._selection = EMPTY_SELECTION;
  }

  protected chooseSource(source: MigrationSource | undefined): void {
    this._source = source;
    this._selection = EMPTY_SELECTION;
  }
}
