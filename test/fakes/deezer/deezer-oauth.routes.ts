import { consentButtons, escapeHtml, formBody, randomId, withParams, type FakeRequest } from '../kit/index.ts';
import { issuedSecret } from '../secret-ledger.ts';
import { html, json, redirectTo, text, type Reply } from './deezer-responses.ts';
import { DEMO_CLIENT_ID, KNOWN_PERMS, type DeezerState } from './deezer-state.ts';

/**
 * Deezer Connect (`https://connect.deezer.com`): `GET /oauth/auth.php` with `app_id`,
 * `redirect_uri`, comma-separated `perms` and `state` (a consent page with "Agree"/"Cancel" unless
 * a user is set to approve at once; a refusal comes back as `error_reason=user_denied`), and
 * `/oauth/access_token.php` with `app_id`, `secret` and `code` in the query — no PKCE, no refresh
 * tokens. The token answer is `access_token=…&expires=…` text, or JSON with `output=json`;
 * `expires` is 0 when `offline_access` was granted. A bad code answers the text `wrong code`.
 */

const CODE_LIFETIME_MS = 10 * 60_000;

interface PendingConsent {
  readonly appId: string;
  readonly redirectUri: string;
  readonly state: string | null;
  readonly perms: readonly string[];
  readonly userId: number;
}

/** Mints an access token; `offline_access` makes it permanent, as on Deezer. */
export function issueAccessToken(state: DeezerState, userId: number, appId: string, perms: readonly string[], lifetimeS: number): { accessToken: string; expires: number } {
  const accessToken = issuedSecret(randomId('fr', 36).replace(/[^A-Za-z0-9]/g, 'x'));
  const permanent = perms.includes('offline_access');
  state.tokens.set(accessToken, { userId, appId, perms: [...perms], expiresAt: permanent ? null : Date.now() + lifetimeS * 1000, expired: false });
  return { accessToken, expires: permanent ? 0 : lifetimeS };
}

export class DeezerOAuth {
  readonly #state: DeezerState;
  readonly #tokenLifetimeS: number;
  readonly #pending = new Map<string, PendingConsent>();
  authorizeUser: number | null = null;
  /** The account the consent page signs in as when no user is preset: the most recent one. */
  lastUserId: number | null = null;

  constructor(state: DeezerState, tokenLifetimeS: number) {
    this.#state = state;
    this.#tokenLifetimeS = tokenLifetimeS;
  }

  authorize(request: FakeRequest): Reply {
    const query = request.url.searchParams;
    const appId = query.get('app_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    const app = this.#state.apps.get(appId);
    // Without a known app and redirect URI there is nowhere safe to send an error: show it.
    if (!app) return html(400, errorPage('Invalid app_id'));
    if (!redirectUri || !URL.canParse(redirectUri) || (app.redirectUris.length > 0 && !app.redirectUris.some((allowed) => redirectUri.startsWith(allowed)))) {
      return html(400, errorPage('The redirect_uri does not match the application domain'));
    }
    const perms = (query.get('perms') ?? '').split(',').map((perm) => perm.trim()).filter(Boolean);
    if (perms.some((perm) => !KNOWN_PERMS.has(perm))) return html(400, errorPage('Invalid perms'));
    const consent: PendingConsent = { appId, redirectUri, state: query.get('state'), perms: perms.length > 0 ? perms : ['basic_access'], userId: 0 };
    const preset = this.authorizeUser !== null && this.#state.users.has(this.authorizeUser) ? this.authorizeUser : null;
    const userId = preset ?? this.lastUserId ?? this.#state.createUser('Fake Deezer User').id;
    if (preset !== null) return redirectTo(this.#approve({ ...consent, userId }));
    const requestId = randomId('consent-', 12);
    this.#pending.set(requestId, { ...consent, userId });
    return html(200, consentPage(requestId, this.#state.users.get(userId)?.name ?? String(userId), consent.perms));
  }

  /** The consent form's answer (`POST /oauth/auth.php`). */
  decide(request: FakeRequest): Reply {
    const body = formBody(request.body);
    const consent = this.#pending.get(body['request'] ?? '');
    if (!consent) return html(400, errorPage('This authorization request has expired. Start again from the app.'));
    this.#pending.delete(body['request']!);
    if (body['decision'] !== 'agree') return redirectTo(withParams(consent.redirectUri, { error_reason: 'user_denied', state: consent.state }));
    return redirectTo(this.#approve(consent));
  }

  #approve(consent: PendingConsent): string {
    const code = issuedSecret(randomId('fr', 24).replace(/[^A-Za-z0-9]/g, 'x'));
    this.#state.codes.set(code, { appId: consent.appId, redirectUri: consent.redirectUri, userId: consent.userId, perms: consent.perms, expiresAt: Date.now() + CODE_LIFETIME_MS, used: false });
    return withParams(consent.redirectUri, { code, state: consent.state });
  }

  /** `/oauth/access_token.php`: parameters from the query (GET, as documented) or a form body. */
  token(request: FakeRequest): Reply {
    const params = { ...formBody(request.body), ...Object.fromEntries(request.url.searchParams) };
    const app = this.#state.apps.get(params['app_id'] ?? '');
    const code = this.#state.codes.get(params['code'] ?? '');
    // Deezer answers every refusal here the same way.
    if (!app || (app.secret !== null && params['secret'] !== app.secret)) return text('wrong code');
    if (!code || code.appId !== app.appId || code.used || code.expiresAt < Date.now()) return text('wrong code');
    code.used = true;
    const issued = issueAccessToken(this.#state, code.userId, app.appId, code.perms, this.#tokenLifetimeS);
    if (params['output'] === 'json') return json({ access_token: issued.accessToken, expires: issued.expires });
    return text(`access_token=${issued.accessToken}&expires=${issued.expires}`);
  }

  /** The demo app: any redirect URI, no secret. */
  static demoApp(): { appId: string; secret: null; redirectUris: string[] } {
    return { appId: DEMO_CLIENT_ID, secret: null, redirectUris: [] };
  }
}

function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error - Deezer (fake)</title></head><body><main><h1>Something went wrong</h1><p>${escapeHtml(message)}</p></main></body></html>`;
}

function consentPage(requestId: string, userName: string, perms: readonly string[]): string {
  const items = perms.map((perm) => `<li>${escapeHtml(perm)}</li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorize - Deezer (fake)</title></head>
<body><main>
<h1>Connect Open Playlist Engine to your Deezer account</h1>
<p>Logged in as <strong>${escapeHtml(userName)}</strong>. This is a fake Deezer for tests and the demo.</p>
<p>The app asks for:</p><ul>${items}</ul>
<form method="post" action="/oauth/auth.php">
<input type="hidden" name="request" value="${escapeHtml(requestId)}">
${consentButtons('cancel')}
</form>
</main></body></html>`;
}
