import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StaticServer, serveStatic } from "../../src/console/static-server.js";
import { ensurePlayground } from "../helpers/bundles.js";
import { runCli, spawnCli } from "../helpers/cli.js";
import { startPlayground } from "../helpers/playground.js";

// Built while the file is collected, outside any test's time limit.
ensurePlayground();

/** A raw GET, so paths reach the server exactly as written (fetch would normalize `..`). */
function get(url: string, path: string, method = "GET") {
  return new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
    const target = new URL(url);
    const req = request({ host: target.hostname, port: target.port, path, method }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode!, type: res.headers["content-type"], body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the static server", () => {
  let folder: string;
  let server: StaticServer;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "filterc-static-"));
    const site = join(folder, "site");
    mkdirSync(join(site, "assets"), { recursive: true });
    writeFileSync(join(site, "index.html"), "<!doctype html><title>t</title>");
    writeFileSync(join(site, "assets", "app.js"), "export {};");
    writeFileSync(join(site, "assets", "app.css"), "body{}");
    writeFileSync(join(site, "assets", "data.bin"), "x");
    writeFileSync(join(folder, "secret.txt"), "secret");
    symlinkSync(join(folder, "secret.txt"), join(site, "link.txt"));
    server = await serveStatic(site, 0);
  });

  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("listens on 127.0.0.1 only", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it("serves index.html for / and each file with its content type", async () => {
    expect(await get(server.url, "/")).toEqual({
      status: 200,
      type: "text/html; charset=utf-8",
      body: "<!doctype html><title>t</title>",
    });
    expect(await get(server.url, "/assets/app.js?v=1")).toEqual({
      status: 200,
      type: "text/javascript; charset=utf-8",
      body: "export {};",
    });
    expect((await get(server.url, "/assets/app.css")).type).toBe("text/css; charset=utf-8");
    expect((await get(server.url, "/assets/data.bin")).type).toBe("application/octet-stream");
  });

  it("answers HEAD without a body and other methods with 405", async () => {
    expect(await get(server.url, "/", "HEAD")).toEqual({
      status: 200,
      type: "text/html; charset=utf-8",
      body: "",
    });
    expect((await get(server.url, "/", "POST")).status).toBe(405);
  });

  it.each([
    "/missing.js",
    "/assets/",
    "/../secret.txt",
    "/assets/../../secret.txt",
    "/%2e%2e/secret.txt",
    "/assets/..%2f..%2fsecret.txt",
    "/..%5csecret.txt",
    "/link.txt",
    "/%00",
    "/%E0%A4%A",
  ])("answers 404 for %s, never a file outside the folder", async (path) => {
    expect(await get(server.url, path)).toEqual({
      status: 404,
      type: "text/plain; charset=utf-8",
      body: "not found\n",
    });
  });
});

describe("filterc playground", () => {
  it("serves the built page, prints its address and stops on SIGTERM", async () => {
    const playground = await startPlayground();
    const page = await get(playground.url, "/");
    expect(page.status).toBe(200);
    expect(page.type).toBe("text/html; charset=utf-8");
    expect(page.body).toContain("<title>filterc playground</title>");
    const script = /src="\.\/(assets\/[\w-]+\.js)"/.exec(page.body)![1]!;
    const bundle = await get(playground.url, `/${script}`);
    expect([bundle.status, bundle.type]).toEqual([200, "text/javascript; charset=utf-8"]);
    // Offline: the page loads nothing from another origin.
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(await playground.stop("SIGTERM")).toEqual({
      code: 0,
      stderr: "filterc playground: stopped (SIGTERM)\n",
    });
  });

  it("stops on SIGINT too", async () => {
    const playground = await startPlayground();
    expect(await playground.stop("SIGINT")).toEqual({
      code: 0,
      stderr: "filterc playground: stopped (SIGINT)\n",
    });
  });

  it("reports a port in use (exit 1)", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      expect(await spawnCli(["playground", "--port", String(port)])).toEqual({
        code: 1,
        stdout: "",
        stderr: `filterc playground: port ${port} is in use\n`,
      });
    } finally {
      blocker.close();
    }
  });

  it.each([
    [["--port", "http"], 'filterc playground: --port takes a whole number, not "http"\n'],
    [["--port", "65536"], "filterc playground: --port takes a port number up to 65535, not 65536\n"],
    [["page.html"], 'filterc playground: unexpected argument "page.html": this command takes options only\n'],
  ])("rejects %j as usage (exit 2)", async (args, message) => {
    const run = await runCli(["playground", ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.startsWith(message)).toBe(true);
    expect(run.stderr).toContain("filterc playground [--port P]");
  });

  it("says how to build the page when it is missing (exit 1)", async () => {
    // From the sources the page folder beside the command does not exist: only the bundle has one.
    expect(await runCli(["playground"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "filterc playground: the playground page is not built; run npm run build\n",
    });
  });
});
