import { OplMigrationBoard } from './migration-board.component.ts';

export { OplMigrationBoard };

if (!customElements.get('opl-migration-board')) customElements.define('opl-migration-board', OplMigrationBoard);

declare global {
  interface HTMLElementTagNameMap {
    'opl-migration-board': OplMigrationBoard;
  }
}
