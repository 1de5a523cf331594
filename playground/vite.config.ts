import { fileURLToPath } from "node:url";
import { defineConfig, type UserConfig } from "vite";

/** A static page of the repository's folder `page`, built into dist/`page` (the CLI serves it from there). */
export function pageConfig(page: string): UserConfig {
  return defineConfig({
    root: fileURLToPath(new URL(`../${page}/`, import.meta.url)),
    // Relative asset URLs, so the folder works wherever it is served from.
    base: "./",
    logLevel: "warn",
    build: {
      outDir: fileURLToPath(new URL(`../dist/${page}`, import.meta.url)),
      emptyOutDir: true,
      target: "es2022",
      reportCompressedSize: false,
      chunkSizeWarningLimit: 1500,
    },
  });
}

/** The playground: served by `filterc playground`. */
export default pageConfig("playground");
