import { describe, expect, it } from "vitest";
import { checkJobBody } from "../../src/api/index.js";
import { runCli } from "../helpers/cli.js";
import { useTestApi } from "./harness.js";
import { success } from "./server.js";

const api = useTestApi();

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const update = { mode: "update", dataset: "http_requests", catalog: undefined } as const;
/** A name that reverses what follows it on a page and colours a terminal. */
const HOSTILE = "invoice \u202Efdp.exe\n\u001b[31m";

describe("a job's name, as the service's schema takes it", () => {
  it("is letters, digits, - and . only, at most 512 characters, or null", () => {
    for (const name of [null, "", "errors-5xx.v2", "x".repeat(512)])
      expect(checkJobBody({ name }, update).problems).toEqual([]);
    expect(checkJobBody({ name: HOSTILE }, update).problems).toEqual([
      {
        code: "E0618",
        path: "name",
        message:
          '`name` takes null or letters, digits, - and . only, not "invoice \u202Efdp.exe\\n\\u001b[31m"',
      },
    ]);
    expect(checkJobBody({ name: "errors log" }, update).problems.map((p) => p.code)).toEqual(["E0618"]);
    // A name refused for its length is named by it, not echoed.
    expect(checkJobBody({ name: "x".repeat(5000) }, update).problems).toEqual([
      { code: "E0618", path: "name", message: "`name` takes at most 512 characters, not 5000 characters" },
    ]);
  });

  it("is refused by the CLI before anything is written, its hidden characters shown as code points", async () => {
    api.on(`GET /zones/${ZONE}/rulesets`, success([]));
    const run = await runCli(
      [
        "jobs",
        "create",
        "--zone",
        ZONE,
        "--destination",
        "s3://logs?region=us-east-1",
        "--ownership-challenge",
        "t",
        "--fields",
        "ClientIP",
        "--name",
        HOSTILE,
      ],
      "",
      { CLOUDFLARE_API_TOKEN: "t0ken", CLOUDFLARE_BASE_URL: api.baseUrl },
    );
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'error[E0618]: name: `name` takes null or letters, digits, - and . only, not "invoice <U+202E>fdp.exe\\n\\u001b[31m"\nfilterc jobs create: create job: nothing was sent\n',
    });
    expect(api.received.filter((request) => request.method !== "GET")).toEqual([]);
  });
});
