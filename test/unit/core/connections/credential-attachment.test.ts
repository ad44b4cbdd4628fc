import { describe, expect, it } from 'vitest';
import { authMethodSchema, manifestSchema } from '@opl/plugin-sdk/schemas';
import { credentialAttachments, credentialOrigins } from '../../../../core/services/connections/credential-attachment.ts';

const network = [
  { origin: 'https://api.example.com', path_prefix: '/v1/', methods: ['GET'], reason: 'API' },
  { origin: 'https://cdn.example.com', path_prefix: '/img/', methods: ['GET'], reason: 'art' },
  { origin: 'https://accounts.example.com', path_prefix: '/api/', methods: ['POST'], reason: 'tokens' },
];
const oauth = { authorization_url: 'https://accounts.example.com/authorize', token_url: 'https://accounts.example.com/api/token' };

describe('credential attachment', () => {
  it('never sends a token to the OAuth endpoints, by default to every other granted origin', () => {
    const method = authMethodSchema.parse({ kind: 'OAUTH_PKCE', oauth });
    expect(credentialOrigins({ network } as never, method)).toEqual(['https://api.example.com', 'https://cdn.example.com']);
  });

  it('uses only the declared credential origins when the manifest names them', () => {
    const method = authMethodSchema.parse({ kind: 'OAUTH_PKCE', oauth, credential_origins: ['https://api.example.com'] });
    const attached = credentialAttachments({ network, credential_access: null } as never, method, { kind: 'token', access_token: 'tok' });
    expect(attached).toEqual([{ origin: 'https://api.example.com', headers: { authorization: 'Bearer tok' }, token: null }]);
  });

  it('sends custom header schemes and extra headers (developer JWT + user token)', () => {
    const method = authMethodSchema.parse({ kind: 'DEVELOPER_USER_TOKEN', credential_origins: ['https://api.example.com'], credential_header: { name: 'Music-User-Token', prefix: '' } });
    const [attached] = credentialAttachments({ network, credential_access: null } as never, method, { kind: 'token', access_token: 'user', extra_headers: { authorization: 'Bearer dev' } });
    expect(attached!.headers).toEqual({ authorization: 'Bearer dev', 'music-user-token': 'user' });
  });

  it('shows the raw token to the plugin only for credential_access origins', () => {
    const method = authMethodSchema.parse({ kind: 'LONG_LIVED_TOKEN', credential_origins: ['https://api.example.com', 'https://cdn.example.com'] });
    const attached = credentialAttachments({ network, credential_access: { origins: ['https://cdn.example.com'], reason: 'signing' } } as never, method, { kind: 'token', access_token: 'tok' });
    expect(attached.map((entry) => entry.token)).toEqual([null, 'tok']);
  });

  it('refuses a manifest whose credential origin has no network grant', () => {
    const result = manifestSchema.safeParse({
      manifest_version: 1,
      id: 'com.example.bad',
      name: 'Bad',
      version: '1.0.0',
      kind: 'provider',
      publisher: { name: 'x', key_id: 'key-1' },
      engines: { opl: '*' },
      files: { 'plugin.js': 'a'.repeat(64) },
      network,
      provider: { name: 'bad', display_name: 'Bad', capabilities: [], attributes: { has_isrc: false, official: false }, write_constraints: {}, auth: [{ kind: 'OAUTH_PKCE', credential_origins: ['https://evil.example.net'] }] },
    });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('has no network grant');
  });
});
