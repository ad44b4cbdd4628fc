// `@opl/plugin-sdk/testing`: runs a plugin's operations in a test the way the host does (inputs
// validated and defaulted, results validated) without a sandbox. For tests only (Node, zod):
// never import it from plugin code — the build refuses SDK subpaths inside a bundle.
export { formatTestContext, TEST_NOW, type FormatTestContextOptions, type TestFormatContext, type TestLogEntry, type TestLogLevel } from './format-context.ts';
export { runParse, runSerialize, runSerializePlaylist, type RunParseOptions, type RunSerializeOptions, type RunSerializePlaylistOptions, type SerializeRun } from './format-runner.ts';
export { v1Carried } from './v1-carried.ts';
