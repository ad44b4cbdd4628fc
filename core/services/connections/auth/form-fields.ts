import type { AuthMethod } from '@opl/plugin-sdk';
import { AuthFlowError, type FormField } from './auth-strategy.ts';

/** Form challenges (header paste, pasted tokens): the fields the UI renders and the values' checks. */

export function formFields(method: AuthMethod, fallback: readonly FormField[]): FormField[] {
  if (method.form_fields.length === 0) return [...fallback];
  return method.form_fields.map((field) => ({ name: field.name, label: field.label, secret: field.secret, help: field.help }));
}

const MAX_VALUE = 16_384;

/** Every declared field present, non-empty, without line breaks (they become header values); nothing else. */
export function readFormValues(fields: readonly FormField[], values: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const known = new Set(fields.map((field) => field.name));
  const extra = Object.keys(values ?? {}).filter((name) => !known.has(name));
  if (extra.length > 0) throw new AuthFlowError('invalid_form', `Unknown field${extra.length > 1 ? 's' : ''}: ${extra.slice(0, 5).join(', ')}.`);
  const result: Record<string, string> = {};
  for (const field of fields) {
    const value = values?.[field.name];
    if (typeof value !== 'string' || value.trim() === '') throw new AuthFlowError('invalid_form', `${field.label} is required.`);
    if (value.length > MAX_VALUE) throw new AuthFlowError('invalid_form', `${field.label} is longer than ${MAX_VALUE} characters.`);
    // eslint-disable-next-line no-control-regex -- control characters would split or corrupt a header
    if (/[\u0000-\u001f\u007f]/.test(value.trim())) throw new AuthFlowError('invalid_form', `${field.label} contains line breaks or control characters; paste the value only.`);
    result[field.name] = value.trim();
  }
  return result;
}
