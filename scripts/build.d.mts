// Types of scripts/build.mjs for the TypeScript that imports it (bench/support/child.ts).
import type { BuildOptions } from 'esbuild';

export declare const NODE_OUTPUT: BuildOptions;
export declare function buildInto(id: string): Promise<string>;
