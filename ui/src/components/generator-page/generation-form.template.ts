import { html, nothing, type TemplateResult } from 'lit';
import { accountFullName, type AccountView } from '../../api/connections.ts';
import type { Controls, GeneratorConfig } from '../../api/generator.ts';
import { hrefFor } from '../../router/route.ts';

/**
 * The request form: the prompt, the explicit music controls the engine's generation request
 * takes, and the account whose service the songs are found on (and later written to). A template
 * of the Generator page: the page owns the state and passes its handlers.
 */

export type WordField = 'genres' | 'moods' | 'eras' | 'seed_artists' | 'seed_tracks';

export interface FormState {
  readonly config: GeneratorConfig;
  readonly accounts: readonly AccountView[];
  readonly targetId: string;
  readonly prompt: string;
  readonly controls: Controls;
  readonly words: Readonly<Record<WordField, string>>;
  readonly busy: boolean;
  readonly promptError: string | null;
  readonly usePreferences: boolean;
  /** Library-grounded: the model chooses only among songs the listener already has. */
  readonly fromLibrary: boolean;
}

export interface FormHandlers {
  prompt(value: string): void;
  preferences(value: boolean): void;
  library(value: boolean): void;
  target(accountId: string): void;
  words(field: WordField, value: string): void;
  control<K extends keyof Controls>(key: K, value: Controls[K]): void;
  generate(): void;
}

const WORD_FIELDS: readonly { field: WordField; label: string; hint: string }[] = [
  { field: 'genres', label: 'Genres', hint: 'Comma-separated, e.g. folk, dream pop' },
  { field: 'moods', label: 'Moods', hint: 'e.g. calm, hopeful' },
  { field: 'eras', label: 'Eras', hint: 'e.g. 1970s, early 2000s' },
  { field: 'seed_artists', label: 'Start from these artists', hint: 'Comma-separated artist names' },
  { field: 'seed_tracks', label: 'Start from these songs', hint: 'Comma-separated, e.g. Golden Hour by Some Artist' },
];

const optionalNumber = (value: string): number | null => (value.trim() === '' ? null : Number(value));

export function generationForm(state: FormState, on: FormHandlers): TemplateResult {
  const { config, controls } = state;
  return html`<form
    data-testid="generation-form"
    aria-labelledby="request-heading"
    @submit=${(event: Event) => {
      event.preventDefault();
      on.generate();
    }}
  >
    <h2 id="request-heading">What would you like to hear?</h2>
    <div class="field">
      <label for="prompt">Describe the playlist</label>
      <p class="hint" id="prompt-hint">Sent to ${config.demo ? 'the demo model' : `the model ${config.model}`} for this request only; the engine never stores it.</p>
      <textarea
        id="prompt"
        rows="3"
        maxlength=${config.maxPromptChars}
        aria-describedby="prompt-hint${state.promptError ? ' prompt-error' : ''}"
        aria-invalid=${state.promptError ? 'true' : 'false'}
        .value=${state.prompt}
        @input=${(event: Event) => on.prompt((event.target as HTMLTextAreaElement).value)}
      ></textarea>
      ${state.promptError ? html`<p class="field-error" id="prompt-error">${state.promptError}</p>` : nothing}
    </div>

    <fieldset>
      <legend>Music controls</legend>
      <div class="grid">
        ${WORD_FIELDS.map(
          ({ field, label, hint }) => html`<div class="field">
            <label for=${`words-${field}`}>${label}</label>
            <input id=${`words-${field}`} type="text" aria-describedby=${`words-${field}-hint`} .value=${state.words[field]} @input=${(event: Event) => on.words(field, (event.target as HTMLInputElement).value)} />
            <p class="hint" id=${`words-${field}-hint`}>${hint}</p>
          </div>`,
        )}
        <div class="field">
          <label for="energy">Energy</label>
          <select id="energy" .value=${controls.energy === null ? '' : String(controls.energy)} @change=${(event: Event) => on.control('energy', optionalNumber((event.target as HTMLSelectElement).value))}>
            <option value="">Any</option>
            <option value="1">1 — calm</option>
            <option value="2">2</option>
            <option value="3">3</option>
            <option value="4">4</option>
            <option value="5">5 — intense</option>
          </select>
        </div>
        <div class="field">
          <label for="track-count">Number of songs</label>
          <input id="track-count" type="number" min="1" max=${config.maxTracks} .value=${String(controls.track_count)} @input=${(event: Event) => on.control('track_count', Math.max(1, Math.min(config.maxTracks, Number((event.target as HTMLInputElement).value) || 1)))} />
        </div>
        <div class="field">
          <label for="duration">Total length in minutes (optional)</label>
          <input id="duration" type="number" min="10" max="600" aria-describedby="duration-hint" .value=${controls.duration_minutes === null ? '' : String(controls.duration_minutes)} @input=${(event: Event) => on.control('duration_minutes', optionalNumber((event.target as HTMLInputElement).value))} />
          <p class="hint" id="duration-hint">Fitted with the real lengths of the songs found.</p>
        </div>
        <div class="field">
          <label for="discovery">Familiar or new: <span data-testid="discovery-value">${controls.discovery}</span> of 100</label>
          <input id="discovery" type="range" min="0" max="100" step="10" aria-describedby="discovery-hint" .value=${String(controls.discovery)} @input=${(event: Event) => on.control('discovery', Number((event.target as HTMLInputElement).value))} />
          <p class="hint" id="discovery-hint">0: songs you surely know; 100: only discoveries.</p>
        </div>
      </div>
      <fieldset class="choices">
        <legend>Explicit lyrics</legend>
        ${(['allow', 'exclude', 'only'] as const).map(
          (value) => html`<label class="choice"
            ><input type="radio" name="explicit" .checked=${controls.explicit === value} @change=${() => on.control('explicit', value)} />
            ${value === 'allow' ? 'Allow' : value === 'exclude' ? 'Leave them out' : 'Only explicit songs'}</label
          >`,
        )}
      </fieldset>
    </fieldset>

    <p>
      <label class="choice"
        ><input type="checkbox" data-testid="use-preferences" aria-describedby="preferences-hint" .checked=${state.usePreferences} @change=${(event: Event) => on.preferences((event.target as HTMLInputElement).checked)} /> Tell the model what my library leans
        towards</label
      >
    </p>
    <p class="hint" id="preferences-hint">Off unless you tick it. Counted here from your connected library and imports: the top 10 artists and 5 genres with their counts, never a song list or account data.</p>

    <fieldset class="choices">
      <legend>Choose songs from</legend>
      <label class="choice"
        ><input type="radio" name="grounding" data-testid="grounding-open" .checked=${!state.fromLibrary} @change=${() => on.library(false)} /> Any song the model knows (each one is searched on the account below)</label
      >
      <label class="choice"
        ><input type="radio" name="grounding" data-testid="grounding-library" aria-describedby="library-hint" .checked=${state.fromLibrary} @change=${() => on.library(true)} /> Only songs I already have</label
      >
      <p class="hint" id="library-hint">
        Your songs are the playlists this engine has read from your connected accounts, your imports and snapshots. Up to 200 of them, sampled here, go to the model as titles and artists (no ids,
        no account data) for this request only; it can choose nothing else, and most need no search.
      </p>
    </fieldset>

    <fieldset class="choices">
      <legend>Find the songs on</legend>
      ${state.accounts.length === 0
        ? html`<p class="empty" data-testid="no-accounts">No account is connected. Connect one on <a href=${hrefFor('connections')}>Connections</a> first: the songs are found on its service, and written there when you confirm.</p>`
        : state.accounts.map(
            (account) => html`<label class="choice"
              ><input type="radio" name="target" .checked=${state.targetId === account.id} @change=${() => on.target(account.id)} /> ${accountFullName(account)}${account.demo ? html` <span class="badge">demo</span>` : nothing}</label
            >`,
          )}
    </fieldset>
    <p><button type="submit" class="primary" aria-disabled=${state.busy || state.accounts.length === 0 ? 'true' : 'false'}>Generate</button></p>
  </form>`;
}
