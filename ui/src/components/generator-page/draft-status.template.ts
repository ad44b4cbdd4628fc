import { html, nothing, type TemplateResult } from 'lit';
import type { DraftItem, DraftSummary } from '../../api/generator.ts';

/**
 * Where a draft stands: the live progress of a running generation (with Cancel), how a finished
 * one ended (cancelled, an error, notes about the model's answer), and the confirmation that
 * writes the approved songs. Templates of the Generator page, which owns the state.
 */

export function generationProgress(draft: DraftSummary, items: readonly DraftItem[], busy: boolean, cancel: () => void): TemplateResult {
  if (draft.status === 'generating') {
    const searched = items.filter((item) => item.status !== 'pending').length;
    const label = items.length === 0 ? 'Waiting for the model to choose songs…' : `Finding the songs on the target: ${searched} of ${items.length}`;
    return html`<div class="progress" data-testid="generation-progress">
      <p role="status">${label}</p>
      ${items.length > 0 ? html`<progress max=${items.length} value=${searched} aria-label="Songs searched"></progress>` : nothing}
      <button type="button" data-action="cancel" aria-disabled=${busy ? 'true' : 'false'} @click=${cancel}>Cancel</button>
    </div>`;
  }
  const generation = draft.generation;
  const error = generation['error'] as { code?: string; message?: string } | undefined;
  const notes = Array.isArray(generation['notes']) ? (generation['notes'] as { message?: string }[]) : [];
  const grounding = generation['grounding'] as { mode?: string; offered?: number } | undefined;
  return html`<div data-testid="generation-outcome" data-status=${draft.status}>
    ${grounding?.mode === 'library'
      ? html`<p class="note" data-testid="library-note"><strong>From your library.</strong> The model chose among ${grounding.offered ?? 0} of your songs; anything else it answered is listed as not one of your songs.</p>`
      : nothing}
    ${generation['cancelled'] === true ? html`<p class="note" data-testid="cancelled-note"><strong>Cancelled.</strong> Songs not searched yet are listed as not found; generate them again or remove them.</p>` : nothing}
    ${error && error.code !== 'model_cancelled' ? html`<p class="note" data-testid="generation-error"><strong>The generation did not finish.</strong> ${error.message ?? ''}</p>` : nothing}
    ${notes.length > 0
      ? html`<details>
          <summary>${notes.length} notes about the model's answer</summary>
          <ul>
            ${notes.map((note) => html`<li>${note.message ?? ''}</li>`)}
          </ul>
        </details>`
      : nothing}
  </div>`;
}

/** What a screen reader hears when a generation ends. */
export function endAnnouncement(draft: DraftSummary, items: readonly DraftItem[]): string {
  const error = draft.generation['error'] as { message?: string } | undefined;
  if (draft.status === 'failed') return `The generation ended without songs: ${error?.message ?? 'see the message on the page'}.`;
  const found = items.filter((item) => item.status === 'resolved').length;
  return `${draft.generation['cancelled'] === true ? 'Cancelled. ' : ''}The draft is ready: ${found} of ${items.length} songs found.`;
}

export function confirmPanel(
  draft: DraftSummary,
  approved: number,
  target: string,
  state: { acknowledged: boolean; busy: boolean },
  on: { acknowledge(value: boolean): void; confirm(): void },
): TemplateResult {
  return html`<div class="confirm" data-testid="confirm-panel">
    <h3>Write it</h3>
    <p>Creates the playlist “${draft.name}” with the ${approved} approved songs on ${target}, as an ordinary migration you can follow in History. Nothing is written before you confirm.</p>
    <label class="choice"><input type="checkbox" .checked=${state.acknowledged} @change=${(event: Event) => on.acknowledge((event.target as HTMLInputElement).checked)} /> I have read the engine's warnings about this write, if it gave any</label>
    <p>
      <button type="button" class="primary" data-action="confirm" aria-disabled=${state.busy || approved === 0 ? 'true' : 'false'} @click=${() => !state.busy && approved > 0 && on.confirm()}>Write ${approved} songs to ${target}</button>
    </p>
  </div>`;
}
