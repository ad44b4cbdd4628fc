export type HeapProfile = 'memory' | 'speed';
export declare const HEAP_PROFILES: readonly ['memory', 'speed'];
export declare const DEFAULT_HEAP_PROFILE: 'memory';
export declare function heapProfileOf(env: Readonly<Record<string, string | undefined>>): string;
export declare function heapProfileFlags(profile: string): string[];
export declare function heapProfileEnv(profile: string): Record<string, string>;
