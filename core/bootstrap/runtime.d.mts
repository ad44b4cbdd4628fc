// Types of runtime.mjs, which stays plain JavaScript so that Node versions older than 24 can run it.
export declare const REQUIRED_NODE_MAJOR: number;
export declare const PINNED_NODE_VERSION: string;
export declare const projectRoot: string;
export declare const compileCacheDir: string;
export declare function runtimeEnv(nodeBinary: string, defaults?: Record<string, string>): NodeJS.ProcessEnv;
export declare function ensureNode24(): string;
export declare function ensureDependencies(nodeBinary: string): void;
export declare function buildUiIfStale(nodeBinary: string): boolean;
export declare function ensureUiBuilt(nodeBinary: string): void;
export declare function execAndExit(command: string, args: readonly string[], env: NodeJS.ProcessEnv): void;
export declare function ensureFirstPartyPlugins(nodeBinary: string): void;
