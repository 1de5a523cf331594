import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { runCli } from "../helpers/cli.js";
import { tempDir, ZONE } from "./helpers.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

describe("filterc sandbox", () => {
  it("prints where it listens and its generated token, serves with it, and stops cleanly on SIGTERM", async () => {
    const dataDir = await tempDir();
    try {
      const child = spawn(process.execPath, [builtCli(), "sandbox", "--port", "0", "--data-dir", dataDir], {
        env: { ...process.env, CLOUDFLARE_API_TOKEN: "", CLOUDFLARE_EMAIL: "", CLOUDFLARE_API_KEY: "" },
      });
      let stdout = "";
      child.stdout.setEncoding("utf8");
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: string) => {
          stdout += chunk;
          if (stdout.includes("API token")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code} before listening: ${stdout}`)));
      });
      const lines = stdout.split("\n");
      expect(lines[0]).toMatch(/^filterc sandbox listening on http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
      expect(lines[1]).toBe(`data directory: ${dataDir}`);
      expect(lines[2]).toMatch(/^API token \(generated\): [A-Za-z0-9_-]{32}$/);
      const api = lines[0]!.split(" ").pop()!;
      const token = lines[2]!.split(" ").pop()!;
      const response = await fetch(`${api}/zones/${ZONE}/rulesets`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exit).toBe(0);
      expect(stdout.endsWith("filterc sandbox stopped\n")).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses half of an email and key pair, and a bad port, as usage errors", async () => {
    const half = await runCli(["sandbox", "--email", "user@example.com", "--port", "0"]);
    expect(half.code).toBe(2);
    expect(half.stderr).toContain("filterc sandbox: --email and --api-key go together");
    const port = await runCli(["sandbox", "--port", "http"]);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('filterc sandbox: --port takes a whole number, not "http"');
  });

  it("says when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    const dataDir = await tempDir();
    try {
      const taken = await runCli([
        "sandbox",
        "--port",
        String(port),
        "--data-dir",
        dataDir,
        "--api-token",
        "t",
      ]);
      expect(taken).toEqual({
        code: 1,
        stdout: "",
        stderr: `filterc sandbox: port ${port} is in use; choose another with --port\n`,
      });
    } finally {
      blocker.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
