// `@opl/plugin-sdk/cli`: the `opl-plugin` CLI as a function, so the engine can offer `opl plugin …`.
export { EXIT_FAILED, EXIT_OK, EXIT_USAGE, processIo, UsageError, type PluginCliCommand, type PluginCliIo } from './cli-io.ts';
export { PLUGIN_CLI_COMMANDS, pluginCliUsage, runPluginCli } from './run-plugin-cli.ts';
