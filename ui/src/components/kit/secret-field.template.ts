import { html, nothing, type TemplateResult } from 'lit';

/**
 * A password field for a secret the user types (the owner secret, the hosted admin token): its
 * label, a hint, and the field-level error when there is one, each tied to the field by id so a
 * screen reader reads them with it. The value is never put back into the field.
 */
export function secretField(options: {
  readonly id: string;
  readonly label: string;
  readonly hint: TemplateResult | string;
  readonly autocomplete: string;
  /** The field-level error; empty when the field is fine. */
  readonly error: string;
}): TemplateResult {
  const { id, error } = options;
  const invalid = error !== '';
  return html`<label for=${id}>${options.label}</label>
    <p class="hint" id=${`${id}-hint`}>${options.hint}</p>
    <input
      id=${id}
      name=${id}
      type="password"
      autocomplete=${options.autocomplete}
      required
      aria-describedby=${invalid ? `${id}-hint ${id}-error` : `${id}-hint`}
      aria-invalid=${invalid ? 'true' : 'false'}
    />
    ${invalid ? html`<p class="field-error" id=${`${id}-error`}>${error}</p>` : nothing}`;
}
