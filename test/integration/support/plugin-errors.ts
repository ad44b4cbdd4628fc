import { PluginError } from '@opl/plugin-sdk';
import { expect } from 'vitest';

/**
 * The typed error a plugin call must fail with: the promise rejects with a `PluginError` (of
 * `type`, when given), which is returned for checks of its message or retry hint.
 */
export async function expectPluginError(promise: Promise<unknown>, type?: PluginError['type']): Promise<PluginError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, `expected a ${type ?? 'plugin'} error`).toBeInstanceOf(PluginError);
  if (type) expect((error as PluginError).type).toBe(type);
  return error as PluginError;
}
