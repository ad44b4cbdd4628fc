import { AuthFlowError, type AuthStrategy } from './auth-strategy.ts';
import { formFields, readFormValues } from './form-fields.ts';

/**
 * HEADER_PASTE: the user pastes request headers (a cookie, an authorization header) copied from a
 * signed-in browser session — for unofficial providers without third-party OAuth. Self-host only:
 * a hosted instance must never ask users for their session cookies.
 */

const DEFAULT_FIELDS = [{ name: 'cookie', label: 'Cookie header', secret: true, help: 'Copy the Cookie request header from a signed-in browser tab (developer tools, Network).' }];

export const headerPasteStrategy: AuthStrategy = {
  kind: 'HEADER_PASTE',

  unavailableReason(context) {
    return context.deploymentMode === 'hosted' ? 'Pasting browser headers is disabled on hosted instances; use another sign-in method.' : null;
  },

  async begin(context) {
    if (context.deploymentMode === 'hosted') throw new AuthFlowError('not_available', 'Pasting browser headers is disabled on hosted instances.');
    return {
      challenge: {
        shape: 'form',
        form: { fields: formFields(context.method, DEFAULT_FIELDS), submit_label: 'Connect' },
        instructions: `Paste the headers of a signed-in ${context.manifest.provider?.display_name ?? context.provider} browser session. They are stored encrypted and sent only to ${context.provider}.`,
      },
      secrets: {},
      scopes: [],
      expiresInS: 15 * 60,
    };
  },

  async complete(context, _secrets, scopes, input) {
    if (context.deploymentMode === 'hosted') throw new AuthFlowError('not_available', 'Pasting browser headers is disabled on hosted instances.');
    const fields = formFields(context.method, DEFAULT_FIELDS);
    const values = readFormValues(fields, input.values);
    const declared = new Map(context.method.form_fields.map((field) => [field.name, field.header]));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) headers[(declared.get(name) ?? name).toLowerCase()] = value;
    return { status: 'done', credential: { material: { secret: { kind: 'headers', headers }, client: null }, refreshToken: null, expiresAt: null, scopes } };
  },

  async refresh() {
    return null;
  },

  async revoke() {},

  callHeaders() {
    return {};
  },
};
