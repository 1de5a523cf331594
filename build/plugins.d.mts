import type { Plugin } from "esbuild";

export const ON_DEMAND_PARTS: readonly string[];
export const onDemandPartsAsSiblings: Plugin;
export const cliBundlePlugins: readonly Plugin[];
export const treeSitterAsCommonJs: Plugin;
export function writeCatalogs(dist: string): void;
