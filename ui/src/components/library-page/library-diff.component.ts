import { html, nothing, type TemplateResult } from 'lit';
import type { DiffTrack, MemberDiff } from '../../api/library-workspace.ts';
import { emit, OplLightElement } from '../kit/index.ts';

/**
 * The diff of two members of a group: songs only in A, only in B, the count in both, common songs
 * in another order, and songs not compared yet (no known identity). Offers "migrate the songs
 * missing in B" (`opl-migrate-missing`, detail: the A positions) when B lacks some of A's songs,
 * and "compare them" for the songs not compared yet (`opl-resolve-unknown`), which searches: the
 * button says first how many searches at most.
 */
export class OplLibraryDiff extends OplLightElement {
  static override properties = { diff: { attribute: false }, targetName: { attribute: false }, resolved: { attribute: false } };

  declare diff: MemberDiff | undefined;
  declare targetName: string;
  /** What the last "compare them" did, in a sentence. */
  declare resolved: string;

  constructor() {
    super();
    this.diff = undefined;
    this.targetName = '';
    this.resolved = '';
  }

  #list(tracks: readonly DiffTrack[], empty: string, testid: string): TemplateResult {
    if (tracks.length === 0) return html`<p class="empty" data-testid=${testid}>${empty}</p>`;
    return html`<ol class="diff-list" data-testid=${testid}>
      ${tracks.map((track) => html`<li value=${track.position + 1}>${track.title} <span class="secondary-inline">— ${track.artist}</span></li>`)}
    </ol>`;
  }

  override render(): TemplateResult | typeof nothing {
    const diff = this.diff;
    if (!diff) return nothing;
    const unknown = diff.notCompared.a.length + diff.notCompared.b.length;
    return html`<div class="diff" data-testid="diff">
      <h3 id="diff-heading">“${diff.a.name}” (${diff.a.provider}) compared with “${diff.b.name}” (${diff.b.provider})</h3>
      <p data-testid="diff-summary">${diff.both} songs in both · ${diff.onlyA.length} only in ${diff.a.provider} · ${diff.onlyB.length} only in ${diff.b.provider} · ${diff.moved.length} in another order</p>
      <div class="diff-columns">
        <div>
          <h4>Only in ${diff.a.provider}</h4>
          ${this.#list(diff.onlyA, 'None.', 'only-a')}
          ${diff.onlyA.length > 0
            ? html`<button type="button" class="primary" data-action="migrate-missing" @click=${() => emit(this, 'opl-migrate-missing', diff.onlyA.map((track) => track.position))}>
                Migrate these ${diff.onlyA.length} songs to ${this.targetName}
              </button>`
            : nothing}
        </div>
        <div>
          <h4>Only in ${diff.b.provider}</h4>
          ${this.#list(diff.onlyB, 'None.', 'only-b')}
        </div>
      </div>
      ${diff.moved.length > 0
        ? html`<h4>In another order</h4>
            <ul class="diff-list" data-testid="moved">
              ${diff.moved.map((pair) => html`<li>${pair.a.title}: position ${pair.a.position + 1} in ${diff.a.provider}, ${pair.b.position + 1} in ${diff.b.provider}</li>`)}
            </ul>`
        : nothing}
      ${unknown > 0
        ? html`<h4>Not compared yet</h4>
            <p class="hint" data-testid="not-compared">
              ${unknown} ${unknown === 1 ? 'song has' : 'songs have'} no ISRC and no match the engine knows, so ${unknown === 1 ? 'it' : 'they'} could not be compared. Migrating them matches them (with a
              search each on the target), after which they are compared too.
            </p>
            ${this.#list([...diff.notCompared.a, ...diff.notCompared.b], '', 'not-compared-list')}
            ${diff.searchesNeeded > 0
              ? html`<button type="button" data-action="resolve-unknown" @click=${() => emit(this, 'opl-resolve-unknown', null)}>
                  Compare them now (at most ${diff.searchesNeeded} ${diff.searchesNeeded === 1 ? 'search' : 'searches'})
                </button>`
              : nothing}`
        : nothing}
      ${this.resolved ? html`<p role="status" data-testid="resolved">${this.resolved}</p>` : nothing}
    </div>`;
  }
}
