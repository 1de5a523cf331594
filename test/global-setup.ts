import { execFileSync } from "node:child_process";

/** The CLI tests spawn the real bundle: build it once from the current sources before any test runs. */
export default function setup(): void {
  execFileSync(process.execPath, ["node_modules/tsup/dist/cli-default.js"], { stdio: "ignore" });
}
