import { html, LitElement, nothing, type TemplateResult } from 'lit';
import type { Area } from '../../router/areas.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { areaPlaceholderStyles } from './area-placeholder.styles.ts';

/** The body of an area that is not built yet: what it will do, and a plain notice that it does not yet. */
export class OplAreaPlaceholder extends LitElement {
  static override styles = [sharedStyles, pageStyles, areaPlaceholderStyles];

  static override properties = {
    area: { attribute: false },
  };

  declare area: Area | undefined;

  constructor() {
    super();
    this.area = undefined;
  }

  override render(): TemplateResult | typeof nothing {
    const area = this.area;
    if (!area) return nothing;
    return html`
      <p class="summary">${area.summary}</p>
      <div class="notice" data-testid="not-available">
        <span class="icon" aria-hidden="true">i</span>
        <p>
          <strong>Not available yet in this version.</strong>
          This page describes what ${area.label} will do. Nothing here reads or changes your playlists yet.
        </p>
      </div>
      ${area.plans.length > 0
        ? html`<h2>What ${area.label} will do</h2>
            <ul>
              ${area.plans.map((plan) => html`<li>${plan}</li>`)}
            </ul>`
        : nothing}
    `;
  }
}
