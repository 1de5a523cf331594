import { describe, expect, it } from "vitest";
import { useTestApi } from "../api/harness.js";
import { failure, success } from "../api/server.js";
import { runCli } from "../helpers/cli.js";

/** Values a server sends are shown to a person with their control characters as code points. */
const api = useTestApi();
const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const JOBS = `/zones/${ZONE}/logpush/jobs`;
const env = () => ({
  CLOUDFLARE_API_TOKEN: "cli_T0kenSecretValue_987654321",
  CLOUDFLARE_BASE_URL: api.baseUrl,
});
const hostile = "s3://bucket/\x1b]0;owned\x07logs\u202e?region=us-west-2";
const job = { id: 7, name: "x\x1b[2J", dataset: "http_requests", destination_conf: hostile, enabled: true };

describe("server-supplied text on a terminal", () => {
  it("jobs list escapes the destination and the name", async () => {
    api.on(`GET ${JOBS}`, success([job]));
    expect(await runCli(["jobs", "list", "--zone", ZONE], "", env())).toEqual({
      code: 0,
      stdout:
        '7 "x\\u001b[2J": http_requests → s3://bucket/<U+001B>]0;owned<U+0007>logs<U+202E>?region=us-west-2\n',
      stderr: "",
    });
  });

  it("jobs get prints JSON a terminal can show; --json prints it as sent", async () => {
    api.on(`GET ${JOBS}/7`, success(job));
    const shown = await runCli(["jobs", "get", "--zone", ZONE, "--id", "7"], "", env());
    expect(shown.stdout).toContain(
      '"destination_conf": "s3://bucket/\\u001b]0;owned\\u0007logs\\u202e?region=us-west-2"',
    );
    expect(JSON.parse(shown.stdout)).toEqual(job);
    api.on(`GET ${JOBS}/7`, success(job));
    const json = await runCli(["jobs", "get", "--zone", ZONE, "--id", "7", "--json"], "", env());
    expect(JSON.parse(json.stdout)).toEqual(job);
  });

  it("an API error message is escaped", async () => {
    api.on(`GET ${JOBS}`, failure(400, 1000, "bad \x1b]0;owned\x07 thing"));
    const run = await runCli(["jobs", "list", "--zone", ZONE], "", env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("bad <U+001B>]0;owned<U+0007> thing");
    expect(run.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f]/);
  });
});
