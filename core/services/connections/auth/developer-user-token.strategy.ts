import { AuthFlowError, type AuthStrategy, type StrategyContext } from './auth-strategy.ts';
import { DeveloperTokenSigner } from './developer-jwt.ts';
import { formFields, readFormValues } from './form-fields.ts';

/**
 * DEVELOPER_USER_TOKEN: the engine signs a developer JWT from its configured key; the user's own
 * token (Apple's music user token) is obtained by the client — MusicKit in the browser, which needs
 * the developer token, or pasted — and submitted as a form. Calls carry both: the developer JWT in
 * `Authorization` (fresh each time) and the user token in the manifest's credential header.
 */

const DEFAULT_FIELDS = [{ name: 'music_user_token', label: 'Music user token', secret: true, help: 'Obtained by signing in with the provider in this page, or pasted from a tool you trust.' }];

const signers = new WeakMap<object, DeveloperTokenSigner>();

function signerFor(context: StrategyContext): DeveloperTokenSigner {
  const key = context.client?.developer_key;
  if (!key) throw new AuthFlowError('not_available', `no developer key is configured for ${context.provider}: add {"${context.provider}": {"developer_key": {"team_id": "…", "key_id": "…", "private_key_file": "…"}}} to OPL_PROVIDER_CLIENTS_FILE`);
  let signer = signers.get(key);
  if (!signer) {
    try {
      signer = new DeveloperTokenSigner(key);
    } catch (error) {
      throw new AuthFlowError('not_available', `the developer key configured for ${context.provider} cannot be used: ${error instanceof Error ? error.message : 'unreadable'}`);
    }
    signers.set(key, signer);
  }
  return signer;
}

export const developerUserTokenStrategy: AuthStrategy = {
  kind: 'DEVELOPER_USER_TOKEN',

  unavailableReason(context) {
    return context.client?.developer_key ? null : `No developer key is configured for ${context.provider}. Add one to OPL_PROVIDER_CLIENTS_FILE.`;
  },

  async begin(context) {
    const developerToken = signerFor(context).token(context.now());
    return {
      challenge: {
        shape: 'form',
        form: { fields: formFields(context.method, DEFAULT_FIELDS), submit_label: 'Connect' },
        instructions: `Sign in with ${context.manifest.provider?.display_name ?? context.provider} to obtain your user token, then submit it.`,
        developer_token: developerToken,
      },
      secrets: {},
      scopes: [],
      expiresInS: 15 * 60,
    };
  },

  async complete(context, _secrets, scopes, input) {
    signerFor(context);
    const fields = formFields(context.method, DEFAULT_FIELDS);
    const values = readFormValues(fields, input.values);
    return { status: 'done', credential: { material: { secret: { kind: 'token', access_token: values[fields[0]!.name]! }, client: null }, refreshToken: null, expiresAt: null, scopes } };
  },

  async refresh() {
    // The user token cannot be renewed by the engine; the developer token is re-signed per call.
    return null;
  },

  async revoke() {},

  callHeaders(context) {
    return { authorization: `Bearer ${signerFor(context).token(context.now())}` };
  },
};
