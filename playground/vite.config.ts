import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** The playground: a static page built into dist/playground, served by `filterc playground`. */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  // Relative asset URLs, so the folder works wherever it is served from.
  base: "./",
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("../dist/playground", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1500,
  },
});
