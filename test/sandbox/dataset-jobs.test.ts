import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { call, ownershipToken, type Running, runSandbox, sdk, TOKEN, tempDir, ZONE } from "./helpers.js";

const ACCOUNT = "01a7362d577a6c3019a474fd6f485823";
const DESTINATION = "s3://gateway-logs/http?region=us-east-1";

let running: Running;
let dir: string;
beforeEach(async () => {
  running = await runSandbox();
  dir = await tempDir();
});
afterEach(async () => {
  await running.stop();
  await rm(dir, { recursive: true, force: true });
});

const jobs = (...args: string[]) =>
  runCli(["jobs", ...args], "", { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_BASE_URL: running.api });

/** The account's ownership token for the destination, written by the sandbox into a file of `dir`. */
async function challengeFile(): Promise<string> {
  const challenge = await sdk(running).logpush.ownership.create({
    account_id: ACCOUNT,
    destination_conf: DESTINATION,
  });
  const file = join(dir, "challenge.txt");
  await writeFile(file, await readFile(join(running.dataDir, challenge!.filename!), "utf8"));
  return file;
}

const accountJobs = async () =>
  (
    (await call(running, "GET", `/accounts/${ACCOUNT}/logpush/jobs`)).json as {
      result: { dataset: string }[];
    }
  ).result;

const gatewayFilter = '# dataset: gateway_http\nAction eq "block" and HTTPHost endsWith ".example.com"\n';

describe("jobs and the dataset a filter file names", () => {
  it("create takes a new job's dataset from the filter's # dataset:, pull writes it, check and diff agree", async () => {
    await writeFile(join(dir, "gw.lpf"), gatewayFilter);
    const create = await jobs(
      "create",
      "--account",
      ACCOUNT,
      "--name",
      "gw-block",
      "--destination",
      DESTINATION,
      "--fields",
      "Action,HTTPHost",
      "--filter",
      join(dir, "gw.lpf"),
      "--ownership-challenge-file",
      await challengeFile(),
    );
    expect(create).toEqual({
      code: 0,
      stdout: `created job 1 "gw-block": gateway_http → ${DESTINATION}\n`,
      stderr: "",
    });
    expect((await accountJobs()).map((job) => job.dataset)).toEqual(["gateway_http"]);
    const pulled = join(dir, "live");
    expect((await jobs("pull", "--account", ACCOUNT, "--dir", pulled)).code).toBe(0);
    const file = join(pulled, "job-1-gw-block.lpf");
    // The settings aside (test/sandbox/drift-settings.test.ts has them).
    expect((await readFile(file, "utf8")).replace(/^# setting .*\n/gm, "")).toBe(
      '# Logpush job 1 "gw-block" (dataset gateway_http)\n' +
        "# pulled by filterc jobs pull; filterc jobs diff compares the filter by meaning, each setting exactly\n" +
        "# dataset: gateway_http\n" +
        'Action eq "block" and HTTPHost endsWith ".example.com"\n',
    );
    expect(await runCli(["check", file])).toEqual({
      code: 0,
      stdout: "ok: 2 of 30 comparisons, 132 of 1000 bytes\n",
      stderr: "",
    });
    expect(await jobs("diff", "--account", ACCOUNT, "--dir", pulled)).toEqual({
      code: 0,
      stdout: "0 jobs changed, 1 the same\n",
      stderr: "",
    });
  });

  it("diff tells a file whose # dataset: names another dataset than the live job's", async () => {
    await writeFile(join(dir, "gw.lpf"), "# dataset: gateway_http\n");
    const created = await jobs(
      ...[
        "create",
        "--account",
        ACCOUNT,
        "--name",
        "all",
        "--destination",
        DESTINATION,
        "--fields",
        "Action",
      ],
      ...["--filter", join(dir, "gw.lpf"), "--ownership-challenge-file", await challengeFile()],
    );
    expect(created.code).toBe(0);
    const pulled = join(dir, "live");
    expect((await jobs("pull", "--account", ACCOUNT, "--dir", pulled)).code).toBe(0);
    const file = join(pulled, "job-1-all.lpf");
    await writeFile(
      file,
      (await readFile(file, "utf8")).replace("# dataset: gateway_http", "# dataset: gateway_dns"),
    );
    expect(await jobs("diff", "--account", ACCOUNT, "--dir", pulled)).toEqual({
      code: 2,
      stdout:
        'changed  job 1 "all" (job-1-all.lpf): the dataset is gateway_http now, not gateway_dns\n' +
        "1 job changed, 0 the same\n",
      stderr: "",
    });
  });

  it("a --dataset or a job's dataset that the directive contradicts refuses the job; nothing is sent", async () => {
    await writeFile(join(dir, "gw.lpf"), gatewayFilter);
    const refused = await jobs(
      ...["create", "--zone", ZONE, "--dataset", "http_requests", "--destination", DESTINATION],
      ...["--fields", "ClientIP", "--filter", join(dir, "gw.lpf")],
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(
      "error[E0008]: this file names the dataset `gateway_http`, but it is checked against `http_requests`",
    );
    expect(refused.stderr).toContain(` --> ${join(dir, "gw.lpf")}:1:12\n`);
    expect(refused.stderr).toContain(
      "error[E0616]: filter: the filter has 1 error; fix it before sending the job\n",
    );
    expect(refused.stderr).toContain("filterc jobs create: create job: nothing was sent\n");
    const created = await call(running, "POST", `/zones/${ZONE}/logpush/jobs`, {
      destination_conf: DESTINATION,
      ownership_challenge: await ownershipToken(sdk(running), running, DESTINATION),
    });
    expect(created.status).toBe(200);
    const update = await jobs("update", "--zone", ZONE, "--id", "1", "--filter", join(dir, "gw.lpf"));
    expect(update).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "error[E0008]: this file names the dataset `gateway_http`, but it is checked against `http_requests` (--dataset, the dataset option, or the job's dataset); make them agree, or remove one\n" +
        ` --> ${join(dir, "gw.lpf")}:1:12\n` +
        "  |\n" +
        "1 | # dataset: gateway_http\n" +
        "  |            ^^^^^^^^^^^^\n" +
        "1 error\n" +
        "error[E0616]: filter: the filter has 1 error; fix it before sending the job\n" +
        "filterc jobs update: update job: nothing was sent\n",
    });
    const live = (await call(running, "GET", `/zones/${ZONE}/logpush/jobs/1`)).json as { result: object };
    expect(live.result).not.toHaveProperty("filter", expect.stringContaining("Action"));
  });

  it("an unknown name in # dataset: is an error at its place before anything is sent", async () => {
    await writeFile(join(dir, "gw.lpf"), '# dataset: gatway_http\nAction eq "block"\n');
    const refused = await jobs(
      ...["create", "--account", ACCOUNT, "--destination", DESTINATION, "--fields", "Action"],
      ...["--filter", join(dir, "gw.lpf")],
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr.split("\n", 1)[0]).toMatch(
      new RegExp(
        `^filterc jobs: ${join(dir, "gw.lpf")}:1:12: unknown dataset "gatway_http" in # dataset:; known datasets: .* \\(did you mean gateway_http\\?\\)$`,
      ),
    );
    expect(await accountJobs()).toEqual([]);
  });

  it("a catalog of one's own holds the fields of the dataset the directive names, shipped or not", async () => {
    await writeFile(join(dir, "fields.json"), '[{"name": "Thing", "type": "string"}]');
    await writeFile(join(dir, "new.lpf"), '# dataset: new_dataset\nThing eq "x"\n');
    const plan = await jobs(
      ...["create", "--account", ACCOUNT, "--destination", DESTINATION, "--fields", "Thing", "--dry-run"],
      ...["--catalog", join(dir, "fields.json"), "--filter", join(dir, "new.lpf")],
      ...["--ownership-challenge-file", await challengeFile()],
    );
    expect({ code: plan.code, stderr: plan.stderr }).toEqual({ code: 0, stderr: "" });
    expect(plan.stdout).toContain(
      '{"dataset":"new_dataset","destination_conf":"s3://gateway-logs/http?region=us-east-1","enabled":true,',
    );
  });

  it("a filterc.json beside the filter sets a new job's dataset and the limits", async () => {
    await writeFile(join(dir, "filterc.json"), '{"dataset": "gateway_http", "maxOperators": 1}');
    await writeFile(join(dir, "gw.lpf"), 'Action eq "block" and HTTPHost eq "a.example"\n');
    const args = ["create", "--account", ACCOUNT, "--destination", DESTINATION, "--fields", "Action"];
    args.push("--ownership-challenge-file", await challengeFile());
    const over = await jobs(...args, "--filter", join(dir, "gw.lpf"), "--dry-run");
    expect(over.code).toBe(1);
    expect(over.stderr).toContain("Logpush accepts at most 1 (--max-operators)");
    const plan = await jobs(...args, "--filter", join(dir, "gw.lpf"), "--dry-run", "--max-operators", "2");
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('"dataset":"gateway_http"');
  });
});
