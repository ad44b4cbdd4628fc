import { html, nothing, type TemplateResult } from 'lit';

/** The next steps that go with a problem, as a list the screen reader names; nothing when there are none. */
export function nextStepsList(steps: readonly string[]): TemplateResult | typeof nothing {
  if (steps.length === 0) return nothing;
  return html`<ul class="next-steps" aria-label="What to do next">
    ${steps.map((step) => html`<li>${step}</li>`)}
  </ul>`;
}
