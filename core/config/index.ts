export { configEnvSchema, toConfig, type Config } from './config.schema.ts';
export { ConfigError, loadConfig } from './load-config.ts';
