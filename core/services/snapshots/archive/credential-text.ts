/**
 * Text that looks like a credential: an archive must never carry one (SPEC Snapshots rule 5).
 * The patterns aim at what providers and HTTP actually use — bearer tokens, JWTs, OAuth token and
 * secret fields, cookies and authorization headers, tokens in URLs — and not at words a song title
 * may hold ("Cookie", "Token of Love"): a field name needs its JSON key quotes, a token its length.
 */
const PATTERNS: readonly { kind: string; pattern: RegExp }[] = [
  { kind: 'a bearer token', pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{16,}/i },
  { kind: 'a JSON web token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  {
    kind: 'a credential field',
    pattern:
      /"(?:access_token|refresh_token|id_token|client_secret|authorization|proxy-authorization|cookie|set-cookie|api_key|apikey|password|music_user_token|developer_token|x-goog-authuser|sapisid|__secure-3psid)"\s*:/i,
  },
  { kind: 'a token in a web address', pattern: /[?&](?:access_token|refresh_token|client_secret|api_key|apikey|token|sig|signature)=[^&\s"]{8,}/i },
  { kind: 'an HTTP credential header', pattern: /\b(?:Authorization|Cookie|Set-Cookie)\s*:\s*\S{8,}/ },
  { kind: 'a SAPISID hash', pattern: /\bSAPISIDHASH\s+\S+/ },
  { kind: 'a private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
];

/** What kind of credential the text seems to hold (never the text itself), else null. */
export function credentialLikeText(text: string): string | null {
  for (const { kind, pattern } of PATTERNS) if (pattern.test(text)) return kind;
  return null;
}
