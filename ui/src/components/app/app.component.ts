import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { apiRequest } from '../../api/http.ts';
import { parseMe, seesAdminAreas, type MeRecipient } from '../../api/me.ts';
import { AREAS, findArea, type Area } from '../../router/areas.ts';
import { hrefFor, sameRoute, type Route } from '../../router/route.ts';
import { HashRouterController } from '../../router/router.controller.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { themeStyles } from '../../theme/theme.styles.ts';
import '../connections-page/index.ts';
import '../export-page/index.ts';
import '../generator-page/index.ts';
import '../health-indicator/index.ts';
import '../history-page/index.ts';
import '../home-page/index.ts';
import '../import-page/index.ts';
import '../library-page/index.ts';
import '../migrate-page/index.ts';
import '../plugins-page/index.ts';
import '../session-badge/index.ts';
import '../settings-page/index.ts';
import '../shares-page/index.ts';
import '../share-copy-page/index.ts';
import '../organizer-page/index.ts';
import '../sync-page/index.ts';
import '../snapshots-page/index.ts';
import { appStyles } from './app.styles.ts';

export const PRODUCT_NAME = 'Open Playlist Engine';
const COPY_TITLE = 'Copy a shared playlist';

/**
 * The application shell: header with engine health, the area navigation and the main region.
 * Navigating moves focus to the new page heading so keyboard and screen-reader users land on it.
 */
export class OplApp extends LitElement {
  static override styles = [themeStyles, sharedStyles, pageStyles, appStyles];

  static override properties = { _adminAreas: { state: true }, _recipient: { state: true } };

  /** Whether the admin-only areas are this user's; true until `/api/me` says otherwise (the API refuses them anyway). */
  declare _adminAreas: boolean;
  /** A share session: this browser acts for a recipient of one share, who has only the copy page. */
  declare _recipient: MeRecipient | null;

  constructor() {
    super();
    this._adminAreas = true;
    this._recipient = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#loadMe();
  }

  async #loadMe(): Promise<void> {
    const result = await apiRequest('/api/me');
    const me = result.ok ? parseMe(result.data) : undefined;
    if (me) {
      this._adminAreas = seesAdminAreas(me);
      this._recipient = me.recipient;
    }
  }

  readonly #recipientChanged = (): void => {
    void this.#loadMe();
  };

  /** Opened without a page in the address: Home then leads an engine with nothing connected on to Connections. */
  readonly #openedBare = window.location.hash.replace(/^#\/*/, '') === '';
  readonly #router = new HashRouterController(this);
  #renderedRoute: Route | undefined;

  #pageTitle(route: Route): string {
    if (route.kind === 'share-copy' || this._recipient) return COPY_TITLE;
    return route.kind === 'area' ? findArea(route.area).label : 'Page not found';
  }

  protected override updated(_changed: PropertyValues<this>): void {
    const route = this.#router.route;
    const previous = this.#renderedRoute;
    this.#renderedRoute = route;
    if (previous && sameRoute(previous, route)) return;
    document.title = `${this.#pageTitle(route)} · ${PRODUCT_NAME}`;
    // The first render keeps the browser's own starting focus; later navigation moves it.
    if (previous) this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  readonly #skipToMain = (event: MouseEvent): void => {
    // Following the link would replace the route hash; move focus instead.
    event.preventDefault();
    this.renderRoot.querySelector<HTMLElement>('main')?.focus();
  };

  #page(route: Route): TemplateResult {
    // A recipient has their copy page only (every owner route answers them 404); after a
    // provider's sign-in they come back to it from whatever page the callback named.
    if (route.kind === 'share-copy' || this._recipient) {
      return html`<h1 tabindex="-1">${COPY_TITLE}</h1>
        <opl-share-copy-page
          .summary=${'Someone shared a playlist with you: copy it into your own music account.'}
          .token=${route.kind === 'share-copy' ? route.token : ''}
          .recipient=${this._recipient}
          @opl-recipient-changed=${this.#recipientChanged}
        ></opl-share-copy-page>`;
    }
    if (route.kind === 'not-found') {
      return html`<div class="not-found">
        <h1 tabindex="-1">Page not found</h1>
        <p>There is no page at <code>${route.path}</code>.</p>
        <p>Choose an area from the navigation, or go to <a href=${hrefFor('connections')}>Connections</a>.</p>
      </div>`;
    }
    const area = findArea(route.area);
    if (area.adminOnly && !this._adminAreas) {
      return html`<h1 tabindex="-1">${area.label}</h1>
        <p class="admin-only" data-field="admin-only">Only the admins of this instance can see this area. Ask one if something here needs changing.</p>`;
    }
    return html`<h1 tabindex="-1">${area.label}</h1>${this.#areaBody(area)}`;
  }

  #areaBody(area: Area): TemplateResult {
    switch (area.id) {
      case 'home':
        return html`<opl-home-page .summary=${area.summary} .landing=${this.#openedBare && this.#renderedRoute === undefined}></opl-home-page>`;
      case 'settings':
        return html`<opl-settings-page .summary=${area.summary}></opl-settings-page>`;
      case 'connections':
        return html`<opl-connections-page .summary=${area.summary}></opl-connections-page>`;
      case 'library':
        return html`<opl-library-page .summary=${area.summary}></opl-library-page>`;
      case 'migrate':
        return html`<opl-migrate-page .summary=${area.summary}></opl-migrate-page>`;
      case 'history':
        return html`<opl-history-page .summary=${area.summary}></opl-history-page>`;
      case 'import':
        return html`<opl-import-page .summary=${area.summary}></opl-import-page>`;
      case 'export':
        return html`<opl-export-page .summary=${area.summary}></opl-export-page>`;
      case 'sync':
        return html`<opl-sync-page .summary=${area.summary}></opl-sync-page>`;
      case 'snapshots':
        return html`<opl-snapshots-page .summary=${area.summary}></opl-snapshots-page>`;
      case 'shares':
        return html`<opl-shares-page .summary=${area.summary}></opl-shares-page>`;
      case 'organizer':
        return html`<opl-organizer-page .summary=${area.summary}></opl-organizer-page>`;
      case 'generator':
        return html`<opl-generator-page .summary=${area.summary}></opl-generator-page>`;
      case 'plugins':
        return html`<opl-plugins-page .summary=${area.summary}></opl-plugins-page>`;
    }
  }

  override render(): TemplateResult {
    const route = this.#router.route;
    return html`
      <a class="skip-link" href="#main" @click=${this.#skipToMain}>Skip to main content</a>
      <header>
        <p class="brand">
          <span class="mark" aria-hidden="true"><span></span><span></span><span></span></span>
          ${PRODUCT_NAME}
          <span class="tag">opl</span>
        </p>
        <opl-session-badge></opl-session-badge>
        <opl-health-indicator></opl-health-indicator>
      </header>
      <div class="layout">
        <nav aria-label="Main" ?hidden=${this._recipient !== null}>
          <ul>
            ${AREAS.filter((area) => !area.adminOnly || this._adminAreas).map(
              (area) => html`<li>
                <a href=${hrefFor(area.id)} aria-current=${route.kind === 'area' && route.area === area.id ? 'page' : nothing}
                  >${area.label}</a
                >
              </li>`,
            )}
          </ul>
        </nav>
        <main id="main" tabindex="-1">${this.#page(route)}</main>
      </div>
    `;
  }
}
