import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";
import { runCli } from "../helpers/cli.js";
import { call, type Running, spawnSandbox, tempDir, ZONE } from "../sandbox/helpers.js";

/*
 * `--custom-fields-limit seed` as the commands take it from the command line: the older limit, 40
 * custom fields across a zone's lists, where the service's today is 100 in each list.
 */

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

const names = (count: number) => Array.from({ length: count }, (_, i) => `x-field-${i}`);
const SEED_REFUSES = "41 custom fields given; a zone takes at most 40 across all lists (custom-field rule 4)";

describe("--custom-fields-limit seed on the command line", () => {
  it("check: 41 fields of a ruleset are refused, and pass under the service's limit", async () => {
    const dir = await tempDir();
    folders.push(dir);
    await mkdir(join(dir, "infra"));
    const fields = names(41).map((name) => `{ name = "${name}" }`);
    await writeFile(
      join(dir, "infra", "main.tf"),
      `resource "cloudflare_ruleset" "a" {\n  zone_id = "z"\n  phase   = "http_log_custom_fields"\n  rules = [{\n    action     = "log_custom_field"\n    expression = "true"\n    action_parameters = {\n      request_fields = [${fields.join(", ")}]\n    }\n  }]\n}\n`,
    );
    const infra = join(dir, "infra");
    const seed = await runCli(["check", infra, "--custom-fields-limit", "seed"]);
    expect([seed.code, seed.stdout, seed.stderr.split("\n")[0]]).toEqual([
      1,
      "",
      `error[E0607]: ${SEED_REFUSES}`,
    ]);
    expect(await runCli(["check", infra])).toEqual({
      code: 0,
      stdout: "ok: 1 Terraform file checked\n",
      stderr: "",
    });
  });

  it("sandbox: a ruleset of 41 fields is answered 400 and not stored; 40 are", async () => {
    const dataDir = await tempDir();
    folders.push(dataDir);
    const { child, api } = await spawnSandbox(dataDir, ["--custom-fields-limit", "seed"]);
    try {
      const running = { api, dataDir } as Running;
      const entrypoint = `/zones/${ZONE}/rulesets/phases/http_log_custom_fields/entrypoint`;
      const rules = (count: number) => [
        {
          action: "log_custom_field",
          expression: "true",
          action_parameters: { request_fields: names(count).map((name) => ({ name })) },
        },
      ];
      expect(await call(running, "PUT", entrypoint, { rules: rules(41) })).toEqual({
        status: 400,
        json: {
          result: null,
          success: false,
          errors: [{ code: 20021, message: SEED_REFUSES, source: { pointer: "/rules/0/action_parameters" } }],
          messages: [],
        },
      });
      expect((await call(running, "GET", entrypoint)).status).toBe(404);
      expect((await call(running, "PUT", entrypoint, { rules: rules(40) })).status).toBe(200);
    } finally {
      child.kill();
      await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
    }
  });
});
