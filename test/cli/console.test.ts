import { readdir } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOKEN_HEADER } from "../../src/console/index.js";
import { ensureConsole } from "../helpers/bundles.js";
import { runCli, spawnCli } from "../helpers/cli.js";
import { startConsoleCli } from "../helpers/console.js";
import { temporaryFolder } from "../helpers/folders.js";
import { runSandbox, TOKEN, ZONE } from "../sandbox/helpers.js";

// Built while the file is collected, outside any test's time limit.
ensureConsole();

const folder = temporaryFolder("filterc-console-cli-");

async function callConsole(origin: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { [TOKEN_HEADER]: token, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json() as Promise<Record<string, unknown>>;
}

describe("filterc console", () => {
  it("refuses flags it cannot use, with exit 2", async () => {
    const usage = async (args: string[]) => {
      const { code, stderr } = await runCli(["console", ...args]);
      return [code, stderr.split("\n")[0]];
    };
    expect(await usage(["--port", "70000"])).toEqual([
      2,
      'filterc console: --port takes a whole number from 0 to 65535, not "70000"',
    ]);
    expect(await usage(["--zone", "example.com"])).toEqual([
      2,
      "filterc console: --zone: invalid zone ID \"example.com\"; expected the zone's ID (32 hex digits, on the dashboard's Overview page), not its name",
    ]);
    expect(await usage(["--email", "me@example.com"])).toEqual([
      2,
      "filterc console: --email and --api-key go together",
    ]);
    expect(await usage(["--data-dir", ""])).toEqual([
      2,
      "filterc console: --data-dir is empty; give a value",
    ]);
    expect(await usage(["--dry-run"])).toEqual([2, "filterc console: unknown option --dry-run"]);
  });

  it("drives a given API only with its credentials", async () => {
    const { code, stdout, stderr } = await runCli(
      ["console", "--base-url", "http://127.0.0.1:9/client/v4"],
      "",
      {},
    );
    expect([code, stdout, stderr]).toEqual([
      1,
      "",
      "filterc console: no credentials for the API: give --api-token (or --email and --api-key), or set CLOUDFLARE_API_TOKEN\n",
    ]);
  });

  it("names the environment's variable when the ID it holds is no ID, with exit 1", async () => {
    const { code, stdout, stderr } = await runCli(["console"], "", { CLOUDFLARE_ZONE_ID: "example.com" });
    expect([code, stdout, stderr]).toEqual([
      1,
      "",
      "filterc console: CLOUDFLARE_ZONE_ID: invalid zone ID \"example.com\"; expected the zone's ID (32 hex digits, on the dashboard's Overview page), not its name\n",
    ]);
  });

  it("starts an embedded sandbox by default, whatever the environment's API, and stops on SIGTERM", async () => {
    const running = await startConsoleCli(
      [],
      { CLOUDFLARE_API_TOKEN: "not-used", CLOUDFLARE_BASE_URL: "http://127.0.0.1:9/client/v4" },
      folder(),
    );
    expect(running.lines).toEqual([
      running.url,
      "API: the embedded sandbox, its state in .filterc-sandbox (the default; --base-url drives another API)",
      `zone: ${ZONE}`,
    ]);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{32}$/);
    const session = await callConsole(running.origin, running.token, "GET", "/api/session");
    expect(session).toEqual({
      ok: true,
      api: {
        kind: "embedded sandbox",
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/),
        dataDir: ".filterc-sandbox",
      },
      zoneId: ZONE,
      accountId: null,
      challengeFromFile: true,
    });
    const added = await callConsole(running.origin, running.token, "POST", "/api/custom-fields", {
      scope: { zoneId: ZONE },
      merge: "add",
      config: { cookies: ["SessionID"] },
    });
    expect(added).toMatchObject({ ok: true, created: true, config: { cookies: ["SessionID"] } });
    const challenge = await callConsole(running.origin, running.token, "POST", "/api/ownership", {
      scope: { zoneId: ZONE },
      destination: "s3://logs/http?region=us-east-1",
    });
    expect(challenge).toMatchObject({ ok: true, token: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await readdir(join(folder(), ".filterc-sandbox"))).toContain("logs");
    expect(await running.stop()).toEqual({ code: 0, stderr: "filterc console: stopped (SIGTERM)\n" });
  });

  it("shows the data directory's control characters as code points, not raw", async () => {
    const running = await startConsoleCli(["--data-dir", "state\u001b[2J\u202e"], {}, folder());
    expect(running.lines[1]).toBe(
      "API: the embedded sandbox, its state in state<U+001B>[2J<U+202E> (the default; --base-url drives another API)",
    );
    expect((await running.stop()).code).toBe(0);
  });

  it("drives a running sandbox given by --base-url, reading its challenge files from --data-dir", async () => {
    const sandbox = await runSandbox();
    try {
      const running = await startConsoleCli([
        "--base-url",
        sandbox.api,
        "--api-token",
        TOKEN,
        "--data-dir",
        sandbox.dataDir,
        "--account",
        "9a7806061c88ada191ed06f989cc3dac",
      ]);
      expect(running.lines).toEqual([
        running.url,
        `API: ${sandbox.api} (its credentials stay in this process)`,
        "account: 9a7806061c88ada191ed06f989cc3dac",
      ]);
      const challenge = await callConsole(running.origin, running.token, "POST", "/api/ownership", {
        scope: { accountId: "9a7806061c88ada191ed06f989cc3dac" },
        destination: "s3://logs/gateway?region=us-east-1",
      });
      expect(challenge).toMatchObject({ ok: true, token: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(await running.stop("SIGINT")).toEqual({
        code: 0,
        stderr:
          "note: credentials given as flags are visible in process lists; prefer the environment\nfilterc console: stopped (SIGINT)\n",
      });
    } finally {
      await sandbox.stop();
    }
  });

  it("says when its port is taken, and stops the sandbox it started", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const { code, stdout, stderr } = await spawnCli([
        "console",
        "--port",
        String(port),
        "--data-dir",
        join(folder(), "taken"),
      ]);
      expect([code, stdout, stderr]).toEqual([
        1,
        "",
        `filterc console: port ${port} is in use; choose another with --port\n`,
      ]);
    } finally {
      taken.close();
    }
  });
});
