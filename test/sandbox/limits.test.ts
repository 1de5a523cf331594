import type Cloudflare from "cloudflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownershipToken, type Running, runSandbox, sdk, sdkRejection, ZONE } from "./helpers.js";

const DESTINATION = "s3://limits-bucket/http?region=us-west-2";

let running: Running;
let client: Cloudflare;
let challenge: string;
beforeAll(async () => {
  running = await runSandbox();
  client = sdk(running);
  challenge = await ownershipToken(client, running, DESTINATION);
});
afterAll(() => running.stop());

const create = (body: Record<string, unknown>) =>
  client.logpush.jobs.create({
    zone_id: ZONE,
    destination_conf: DESTINATION,
    ownership_challenge: challenge,
    ...body,
  } as never);

const hosts = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ key: "ClientRequestHost", operator: "eq", value: `h${i}` }));

describe("the filter limits, measured on the filter as sent", () => {
  it("counts 31 comparisons of one field (1,806 bytes) as 31, though filterc would merge them into one `in`", async () => {
    const filter = JSON.stringify({ where: { or: hosts(31) } });
    expect(await sdkRejection(create({ filter }))).toEqual({
      status: 400,
      errors: [
        {
          code: 1004,
          message:
            "bad predicate: the filter has 31 comparisons; Logpush accepts at most 30; this comparison crosses the limit; the filter's `or` can be split across several jobs, each pushing the records of some of its parts",
        },
      ],
    });
  });

  it("counts the bytes as sent, white space included", async () => {
    const compact = JSON.stringify({ where: { or: hosts(13) } });
    const filter = JSON.stringify({ where: { or: hosts(13) } }, null, "\t");
    expect([compact.length, filter.length]).toEqual([762, 1113]);
    expect(await sdkRejection(create({ filter }))).toEqual({
      status: 400,
      errors: [
        { code: 1004, message: "bad predicate: the filter is 1113 bytes; Logpush accepts at most 1000" },
      ],
    });
  });

  it("takes the filter object itself, not its JSON in a string nor a job holding it", async () => {
    const filter = JSON.stringify({ where: hosts(1)[0] });
    for (const [wrapped, what] of [
      [JSON.stringify(filter), "a string holding it"],
      [JSON.stringify({ dataset: "http_requests", filter }), "a job holding it"],
    ])
      expect(await sdkRejection(create({ filter: wrapped }))).toEqual({
        status: 400,
        errors: [
          {
            code: 1004,
            message: `bad predicate: the filter is the JSON object {"where": …} itself, not ${what}`,
          },
        ],
      });
  });

  it("accepts a filter just within both limits", async () => {
    const filter = JSON.stringify({ where: { or: hosts(17) } });
    expect(filter.length).toBe(994);
    expect(((await create({ filter })) as unknown as { filter: string }).filter).toBe(filter);
  });
});
