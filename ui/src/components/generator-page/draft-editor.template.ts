import { html, nothing, type TemplateResult } from 'lit';
import { confidenceLabel, formatDuration, ITEM_STATUS_LABEL, type DraftItem } from '../../api/generator.ts';

/**
 * The draft's songs as an ordered list the user edits: approve, remove or restore, move (buttons,
 * Alt+Arrow keys on the row's handle, or drag and drop), and replace with another candidate the
 * target returned. Each song shows its match confidence with the scorer's explanation; a song the
 * target does not have stays in the list as "Not found", with the model's words and the reason.
 */

export interface EditorHandlers {
  approve(item: DraftItem, approved: boolean): void;
  remove(item: DraftItem, removed: boolean): void;
  move(item: DraftItem, by: number): void;
  drop(draggedId: string, ontoId: string): void;
  toggleReplace(item: DraftItem): void;
  replace(item: DraftItem, uri: string): void;
}

export interface EditorState {
  readonly items: readonly DraftItem[];
  readonly editable: boolean;
  readonly replacing: string | undefined;
}

function explanation(item: DraftItem): TemplateResult | typeof nothing {
  if (item.status !== 'resolved' && item.status !== 'removed') return nothing;
  if (item.reason === null && item.signals.length === 0) return nothing;
  return html`<details class="explanation" data-testid="explanation">
    <summary>Why ${confidenceLabel(item.confidence).toLowerCase()}</summary>
    ${item.reason ? html`<p>${item.reason}</p>` : nothing}
    ${item.signals.length > 0
      ? html`<ul>
          ${item.signals.map((signal) => html`<li><strong>${signal.signal}</strong>: ${signal.note} (${Math.round(signal.value * 100)}%, weight ${signal.weight})</li>`)}
        </ul>`
      : nothing}
  </details>`;
}

function candidates(item: DraftItem, on: EditorHandlers): TemplateResult {
  const others = item.candidates.filter((candidate) => candidate.uri !== item.targetUri);
  if (others.length === 0) return html`<p class="empty" data-testid="no-candidates">The target returned no other candidate for this song. Search below and choose “Use instead”.</p>`;
  return html`<p class="hint">Or search below and choose “Use instead”.</p>
    <ul class="candidates" data-testid="candidates" aria-label=${`Other candidates for ${item.intent?.title ?? item.title}`}>
    ${others.map(
      (candidate) => html`<li>
        <span>${candidate.title} — ${candidate.artist}${candidate.album ? html` <span class="muted">(${candidate.album})</span>` : nothing} · ${confidenceLabel(candidate.confidence)}</span>
        <button type="button" data-action="use-candidate" aria-label=${`Use ${candidate.title} by ${candidate.artist}`} @click=${() => on.replace(item, candidate.uri)}>Use this</button>
      </li>`,
    )}
  </ul>`;
}

function row(item: DraftItem, index: number, count: number, state: EditorState, on: EditorHandlers): TemplateResult {
  const name = `${item.title} by ${item.artist}`;
  const editable = state.editable && item.status !== 'pending';
  return html`<li
    data-testid="draft-item"
    data-item-id=${item.id}
    data-status=${item.status}
    data-approved=${item.approved ? 'true' : 'false'}
    draggable=${editable ? 'true' : 'false'}
    @dragstart=${(event: DragEvent) => event.dataTransfer?.setData('text/plain', item.id)}
    @dragover=${(event: DragEvent) => {
      if (editable) event.preventDefault();
    }}
    @drop=${(event: DragEvent) => {
      event.preventDefault();
      const dragged = event.dataTransfer?.getData('text/plain');
      if (dragged && dragged !== item.id) on.drop(dragged, item.id);
    }}
  >
    <div class="song">
      <button
        type="button"
        class="handle"
        id=${`handle-${item.id}`}
        data-action="handle"
        aria-label=${`Move ${name}: Alt+Up or Alt+Down, or drag`}
        aria-disabled=${editable ? 'false' : 'true'}
        @keydown=${(event: KeyboardEvent) => {
          if (!editable || !event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
          event.preventDefault();
          on.move(item, event.key === 'ArrowUp' ? -1 : 1);
        }}
      >
        ⠿
      </button>
      <span class="position">${index + 1}.</span>
      <span class="words">
        <strong class="title">${item.title}</strong> — <span class="artist">${item.artist}</span>
        ${item.album ? html`<span class="muted"> · ${item.album}</span>` : nothing} ${item.durationS !== null ? html`<span class="muted"> · ${formatDuration(item.durationS)}</span>` : nothing}
        ${item.explicit ? html`<span class="badge">explicit</span>` : nothing}
      </span>
      <span class="status" data-testid="item-status">${ITEM_STATUS_LABEL[item.status] ?? item.status}</span>
      ${item.status === 'resolved' ? html`<span class="confidence" data-testid="confidence">${confidenceLabel(item.confidence)}</span>` : nothing}
    </div>
    ${item.status === 'unresolved'
      ? html`<p class="unresolved" data-testid="unresolved-reason">
          The model proposed “${item.intent?.title ?? item.title}” by ${item.intent?.artist ?? item.artist}. ${item.reason ?? ''}
        </p>`
      : nothing}
    ${item.status === 'removed' && item.reason ? html`<p class="muted">${item.reason}</p>` : nothing} ${explanation(item)}
    <div class="actions" role="group" aria-label=${`Actions for ${name}`}>
      ${item.status === 'resolved'
        ? html`<label class="choice"
            ><input type="checkbox" data-action="approve" .checked=${item.approved} ?disabled=${!editable} @change=${(event: Event) => on.approve(item, (event.target as HTMLInputElement).checked)} /> Approve</label
          >`
        : nothing}
      <button type="button" data-action="move-up" aria-label=${`Move ${name} up`} aria-disabled=${editable && index > 0 ? 'false' : 'true'} @click=${() => editable && index > 0 && on.move(item, -1)}>Up</button>
      <button type="button" data-action="move-down" aria-label=${`Move ${name} down`} aria-disabled=${editable && index < count - 1 ? 'false' : 'true'} @click=${() => editable && index < count - 1 && on.move(item, 1)}>Down</button>
      ${item.status !== 'pending'
        ? html`<button type="button" id=${`item-action-${item.id}`} data-action=${item.status === 'removed' ? 'restore' : 'remove'} aria-label=${`${item.status === 'removed' ? 'Restore' : 'Remove'} ${name}`} aria-disabled=${editable ? 'false' : 'true'} @click=${() => editable && on.remove(item, item.status !== 'removed')}>
            ${item.status === 'removed' ? 'Restore' : 'Remove'}
          </button>`
        : nothing}
      ${item.status !== 'pending'
        ? html`<button type="button" data-action="replace" aria-expanded=${state.replacing === item.id ? 'true' : 'false'} aria-label=${`Replace ${name}`} aria-disabled=${editable ? 'false' : 'true'} @click=${() => editable && on.toggleReplace(item)}>Replace…</button>`
        : nothing}
    </div>
    ${state.replacing === item.id ? candidates(item, on) : nothing}
  </li>`;
}

export function draftEditor(state: EditorState, on: EditorHandlers): TemplateResult {
  if (state.items.length === 0) return html`<p class="empty" data-testid="no-items">The draft has no songs yet.</p>`;
  return html`<p class="hint" id="reorder-hint">Reorder with the Up and Down buttons, with Alt+Up or Alt+Down on a song's handle (⠿), or by dragging a song.</p>
    <ol class="draft-items" data-testid="draft-items" aria-describedby="reorder-hint">
      ${state.items.map((item, index) => row(item, index, state.items.length, state, on))}
    </ol>`;
}
