import { html, nothing, type TemplateResult } from 'lit';
import { authKindLabel, normaliseLabel, type AccountView, type ProviderRow } from '../../../api/connections.ts';
import { hrefFor } from '../../../router/route.ts';
import type { ConnectAttempt } from '../connect-attempt.store.ts';
import { emit, OplLightElement } from '../../kit/index.ts';
import { badges, safeId, sameOrigin, type Origin, type OriginExtras } from '../origin.ts';

/** What `opl-connect` carries: where the sign-in starts and what to ask the engine for. */
export interface ConnectRequest {
  readonly origin: Origin;
  readonly attempt: ConnectAttempt;
}

/**
 * The services the loaded provider plugins offer, each with its connect form (an optional label and
 * the sign-in method); submitting fires `opl-connect` with a ConnectRequest. A service this engine
 * cannot connect says why next to its button.
 */
export class OplProviderList extends OplLightElement {
  static override properties = {
    providers: { attribute: false },
    accounts: { attribute: false },
    connecting: { attribute: false },
    extras: { attribute: false },
  };

  declare providers: readonly ProviderRow[];
  declare accounts: readonly AccountView[];
  /** The sign-in the page is starting, if any. */
  declare connecting: Origin | undefined;
  declare extras: OriginExtras;

  constructor() {
    super();
    this.providers = [];
    this.accounts = [];
    this.connecting = undefined;
    this.extras = () => html``;
  }

  #connect(event: SubmitEvent, provider: ProviderRow): void {
    event.preventDefault();
    if (!provider.connectable) return;
    const form = event.currentTarget as HTMLFormElement;
    const label = normaliseLabel((form.elements.namedItem('account-label') as HTMLInputElement | null)?.value ?? '');
    const method = form.querySelector<HTMLInputElement>('input[name="auth-kind"]:checked')?.value;
    const attempt: ConnectAttempt = method ? { provider: provider.name, accountLabel: label, authKind: method } : { provider: provider.name, accountLabel: label };
    const request: ConnectRequest = { origin: { kind: 'provider', provider: provider.name }, attempt };
    emit(this, 'opl-connect', request);
  }

  #providerCard(provider: ProviderRow): TemplateResult {
    const origin: Origin = { kind: 'provider', provider: provider.name };
    const headingId = safeId('provider', provider.name);
    const reasonId = safeId('unavailable', provider.name);
    const labelId = safeId('label', provider.name);
    const busy = sameOrigin(this.connecting, origin);
    const count = this.accounts.filter((account) => account.provider === provider.name).length;
    return html`<li class="provider" data-provider=${provider.name} data-connectable=${provider.connectable ? 'true' : 'false'}>
      <h3 id=${headingId}>${provider.displayName} ${badges(provider, provider)}</h3>
      ${count > 0 ? html`<p class="hint">${count === 1 ? '1 account connected' : `${count} accounts connected`}.</p>` : nothing}
      ${provider.warning ? html`<p class="provider-warning">${provider.warning}</p>` : nothing}
      <form class="connect-form" novalidate aria-labelledby=${headingId} @submit=${(event: SubmitEvent) => this.#connect(event, provider)}>
        <div class="field">
          <label for=${labelId}>Label <span class="optional">(optional)</span></label>
          <input id=${labelId} name="account-label" type="text" maxlength="100" autocomplete="off" aria-describedby=${`${labelId}-hint`} />
          <p class="hint" id=${`${labelId}-hint`}>Tells several ${provider.displayName} accounts apart, e.g. “Work”.</p>
        </div>
        ${provider.authKinds.length > 1
          ? html`<fieldset>
              <legend>Sign-in method</legend>
              ${provider.authKinds.map(
                (kind, index) => html`<label class="choice">
                  <input type="radio" name="auth-kind" value=${kind} ?checked=${index === 0} />
                  ${authKindLabel(kind)}
                </label>`,
              )}
            </fieldset>`
          : nothing}
        <div class="row">
          <button
            type="submit"
            class=${provider.connectable ? 'primary' : 'unavailable'}
            id=${safeId('connect', provider.name)}
            aria-disabled=${!provider.connectable || busy ? 'true' : 'false'}
            aria-describedby=${provider.connectable ? nothing : reasonId}
          >
            ${busy ? 'Connecting…' : `Connect ${provider.displayName}`}
          </button>
        </div>
        ${provider.connectable
          ? nothing
          : html`<p class="unavailable" id=${reasonId} data-testid="connect-unavailable">
              ${provider.connectUnavailableReason ?? 'This engine cannot connect this service.'}
            </p>`}
      </form>
      ${this.extras(origin)}
    </li>`;
  }

  override render(): TemplateResult {
    const { providers } = this;
    return html`<section aria-labelledby="providers-heading">
      <h2 id="providers-heading" tabindex="-1">Connect a service</h2>
      ${providers.length === 0
        ? html`<p class="empty" data-testid="providers-empty">
            No provider plugins are loaded, so there is nothing to connect yet. Services come from signed provider plugins: see
            <a href=${hrefFor('plugins')}>Plugins</a>, or run <code>opl plugin setup</code> on the server.
          </p>`
        : html`<p>Sign-in happens with the service itself; the engine keeps the tokens and this page never sees them.</p>
            <ul class="providers" data-testid="provider-list">
              ${providers.map((provider) => this.#providerCard(provider))}
            </ul>`}
    </section>`;
  }
}
