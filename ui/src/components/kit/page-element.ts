import { LitElement, type PropertyDeclarations } from 'lit';

/**
 * The base of every page of the app. The router hands each page its one-line summary (shown under
 * the heading); a page that reports outcomes puts the sentence for its polite live region in
 * `_announcement`. Both are reactive properties, declared here once instead of in every page.
 */
export class OplPage extends LitElement {
  static override properties: PropertyDeclarations = {
    summary: {},
    _announcement: { state: true },
  };

  declare summary: string;
  declare _announcement: string;

  constructor() {
    super();
    this.summary = '';
    this._announcement = '';
  }
}
