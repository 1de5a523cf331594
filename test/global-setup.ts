import { execFileSync } from "node:child_process";

/** The CLI tests spawn the real bundle: build it once from the current sources before any test runs. */
export default function setup(): void {
  execFileSync(process.execPath, ["node_modules/tsup/dist/cli-default.js"], { stdio: "ignore" });
  // The playground page (dist/playground), which `filterc playground` serves to the browser tests.
  const vite = ["node_modules/vite/bin/vite.js", "build", "--config", "playground/vite.config.ts"];
  execFileSync(process.execPath, vite, { stdio: "ignore" });
}
