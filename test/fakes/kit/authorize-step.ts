import type { ServerResponse } from 'node:http';
import { escapeHtml, redirect, sendHtml, type FakeRequest } from '../fake-provider.ts';
import type { ConsentUsers } from './consent-users.ts';
import { consentButtons, hiddenFields, withParams } from './oauth-pages.ts';

/**
 * The authorize endpoint of a redirect-flow fake whose consent form posts the request back to
 * itself: a GET with a user set to approve at once is approved, else the consent page is shown;
 * the form's POST approves on "agree" and sends any other decision back as a denial. What the
 * provider checks, the code it issues and how it words a denial stay the fake's own (`step`).
 */

export interface AuthorizeStep<State, Checked> {
  /** Checks the request's parameters; answers the error itself and returns null when they are unusable. */
  check(state: State, params: URLSearchParams, response: ServerResponse): Checked | null;
  /** Issues a code for `userId` and sends the browser back to the client. */
  approve(state: State, checked: Checked, userId: string, response: ServerResponse): void;
  /** The consent page for the user the form signs in as. */
  consentPage(state: State, params: URLSearchParams, userId: string): string;
  /** Where a denial sends the browser: the client's redirect URI with the provider's error parameters. */
  denial(checked: Checked): string;
}

export function answerAuthorize<State, Checked>(step: AuthorizeStep<State, Checked>, state: State, users: ConsentUsers, request: FakeRequest, response: ServerResponse): void {
  const params = request.method === 'POST' ? new URLSearchParams(request.body) : request.url.searchParams;
  const checked = step.check(state, params, response);
  if (!checked) return;
  if (request.method === 'GET') {
    const auto = users.authorizeUserId();
    if (auto !== null) return step.approve(state, checked, auto, response);
    sendHtml(response, 200, step.consentPage(state, params, users.consentUserId()));
    return;
  }
  if (params.get('decision') !== 'agree') {
    redirect(response, step.denial(checked));
    return;
  }
  step.approve(state, checked, users.consentUserId(), response);
}

/** A consent page whose form repeats the authorize request (its parameters as hidden fields) with the user's decision. */
export interface ConsentPage {
  readonly title: string;
  readonly heading: string;
  /** The signed-in user's name (plain text). */
  readonly signedInAs: string;
  /** The sentence naming what the app asks for (HTML). */
  readonly asks: string;
  /** The authorize path the form posts to. */
  readonly action: string;
  readonly params: URLSearchParams;
}

export function consentPageHtml(page: ConsentPage): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title></head>
<body>
<main>
<h1>${escapeHtml(page.heading)}</h1>
<p>Signed in as <strong>${escapeHtml(page.signedInAs)}</strong>.</p>
<p>${page.asks}</p>
<form method="post" action="${escapeHtml(page.action)}">${hiddenFields(page.params)}
${consentButtons()}
</form>
</main>
</body></html>`;
}

/** The space-separated scopes an authorize request asks for. */
export function requestedScopes(params: URLSearchParams): string[] {
  return (params.get('scope') ?? '').split(/\s+/).filter(Boolean);
}

/** How long an authorization code of the PKCE code flows may be redeemed (ten minutes, as the providers say). */
export const AUTHORIZATION_CODE_TTL_MS = 10 * 60 * 1000;

/** An accepted authorize request of a PKCE code flow, kept until the user answers the consent page. */
export interface PkceAuthorizeParams {
  readonly redirectUri: string;
  readonly state: string | null;
  readonly scopes: string[];
  readonly codeChallenge: string;
}

/** An authorize request of the PKCE code flow whose client and redirect URI were accepted. */
export interface PkceCodeRequest {
  readonly state: string | null;
  readonly codeChallenge: string;
  /** Sends the browser back to the client with an error in the provider's words; null, for the caller to return. */
  readonly fail: (error: string, description: string) => null;
}

/**
 * The checks every PKCE code flow makes once the client and its redirect URI are accepted: a code
 * response and an S256 challenge. A failure goes back to the redirect URI (`challengeError`: the
 * provider's words for a missing or bad challenge) and gives null.
 */
export function checkPkceCodeRequest(params: URLSearchParams, redirectUri: string, response: ServerResponse, challengeError: string): PkceCodeRequest | null {
  const state = params.get('state');
  const fail = (error: string, description: string): null => {
    redirect(response, withParams(redirectUri, { error, error_description: description, state }));
    return null;
  };
  if (params.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  const codeChallenge = params.get('code_challenge') ?? '';
  if (params.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) return fail('invalid_request', challengeError);
  return { state, codeChallenge, fail };
}
