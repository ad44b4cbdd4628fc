import type { AuthStrategy } from './auth-strategy.ts';
import { formFields, readFormValues } from './form-fields.ts';

/** LONG_LIVED_TOKEN: a token the user creates at the provider (a personal access token) and pastes. */

const DEFAULT_FIELDS = [{ name: 'token', label: 'Access token', secret: true, help: null }];

export const longLivedTokenStrategy: AuthStrategy = {
  kind: 'LONG_LIVED_TOKEN',

  unavailableReason() {
    return null;
  },

  async begin(context) {
    return {
      challenge: { shape: 'form', form: { fields: formFields(context.method, DEFAULT_FIELDS), submit_label: 'Connect' }, instructions: `Paste an access token created in your ${context.manifest.provider?.display_name ?? context.provider} account settings.` },
      secrets: {},
      scopes: [],
      expiresInS: 15 * 60,
    };
  },

  async complete(context, _secrets, scopes, input) {
    const fields = formFields(context.method, DEFAULT_FIELDS);
    const values = readFormValues(fields, input.values);
    const token = values[fields[0]!.name]!;
    return { status: 'done', credential: { material: { secret: { kind: 'token', access_token: token }, client: null }, refreshToken: null, expiresAt: null, scopes } };
  },

  async refresh() {
    return null;
  },

  async revoke() {},

  callHeaders() {
    return {};
  },
};
