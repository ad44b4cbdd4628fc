/** What the commands that talk to a running engine (`opl export`, `opl migrate`) share. */
export { plural, problemDetail, problemOf, readCommandLine, withEngine, type CommandIo, type CommandLine } from './command-shell.ts';
export { EngineClient, EngineRequestError, type Answer } from './engine-client.ts';
export { engineUrl, engineUrlProblem } from './engine-url.ts';
export { engineUrlOption, parseCommandLine, parseCommandWords, UUID } from './parse-command-line.ts';
