import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger } from 'pino';

/**
 * Field paths whose values are replaced before a log line is written. Secrets must never reach a
 * log: request headers that carry credentials, anything named like a token, password or secret.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.accessToken',
  '*.refreshToken',
  '*.client_secret',
  '*.ownerSecret',
  '*.adminToken',
  '*.apiKey',
  '*.cookie',
  '*.authorization',
  'password',
  'secret',
  'token',
  'access_token',
  'refresh_token',
  'ownerSecret',
  'adminToken',
  'apiKey',
  'connectionString',
  '*.connectionString',
];

/** Connection strings and bearer values inside free text (error messages) are masked too. */
const SECRET_IN_TEXT = [
  [/(postgres(?:ql)?:\/\/[^:/\s]+:)[^@\s]+@/gi, '$1[REDACTED]@'],
  [/(bearer\s+)[\w.~+/=-]+/gi, '$1[REDACTED]'],
  [/((?:access|refresh)_token=)[^&\s"]+/gi, '$1[REDACTED]'],
] as const;

export function redactText(text: string): string {
  let result = text;
  for (const [pattern, replacement] of SECRET_IN_TEXT) result = result.replace(pattern, replacement);
  return result;
}

export interface LoggerOptions {
  level: string;
  name?: string;
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      name: options.name ?? 'opl',
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
      hooks: {
        // Free-text messages may quote an error that embeds a URL with a password.
        logMethod(args, method) {
          const masked = args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)) as typeof args;
          method.apply(this, masked);
        },
      },
      serializers: {
        err: (error: unknown) => {
          const serialized = pino.stdSerializers.err(error as Error);
          if (serialized.message) serialized.message = redactText(serialized.message);
          if (serialized.stack) serialized.stack = redactText(serialized.stack);
          return serialized;
        },
      },
    },
    options.destination,
  );
}
