import type { AppOverrides } from '../../../core/app/index.ts';
import { firstPartyPlugins } from './first-party-plugins.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The harness of the connection tests: the first-party plugins built and signed, the engine's
 * HTTP API started against them (and usually a fake provider), and a JSON client that keeps every
 * answer, so a test can prove that none carries a token.
 */

export interface JsonAnswer {
  readonly status: number;
  readonly json: unknown;
  readonly headers: Headers;
}

export interface ConnectionApp {
  readonly testApp: TestApp;
  readonly plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  /** `http://127.0.0.1:<port>` of the engine's HTTP API. */
  readonly baseUrl: string;
  /** Every answer body `api` received, oldest first. */
  readonly answers: string[];
  /** Calls the API (a JSON body gets its content type); redirects are not followed unless `follow`. */
  api(path: string, init?: RequestInit): Promise<JsonAnswer>;
  close(): Promise<void>;
}

/** The HTTP API's base URL of a started test app. */
export function appBaseUrl(testApp: TestApp): string {
  const address = testApp.app.http!.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

export async function startConnectionApp(overrides: Omit<AppOverrides, 'logger'> = {}, options: { env?: Record<string, string>; followRedirects?: boolean; /** Run jobs too (migrations, sync runs); default false. */ worker?: boolean } = {}): Promise<ConnectionApp> {
  const plugins = await firstPartyPlugins();
  let testApp: TestApp;
  try {
    testApp = await startTestApp({ ...plugins.env, ...options.env }, { http: true, worker: options.worker ?? false }, overrides);
  } catch (error) {
    await plugins.remove();
    throw error;
  }
  const baseUrl = appBaseUrl(testApp);
  const answers: string[] = [];
  return {
    testApp,
    plugins,
    baseUrl,
    answers,
    async api(path, init = {}) {
      const response = await fetch(`${baseUrl}${path}`, { ...init, ...(options.followRedirects ? {} : { redirect: 'manual' }), headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
      const text = await response.text();
      answers.push(text);
      return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null, headers: response.headers };
    },
    async close() {
      await testApp.close();
      await plugins.remove();
    },
  };
}
