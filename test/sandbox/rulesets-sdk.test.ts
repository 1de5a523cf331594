import { readFileSync } from "node:fs";
import type Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import type { CustomFieldsLimit } from "../../src/api/index.js";
import type { Ruleset } from "../../src/sandbox/model.js";
import {
  HEX_ID,
  MICRO_TIMESTAMP,
  OTHER_ZONE,
  runSandbox,
  sandboxForEachTest,
  sdk,
  sdkRejection,
  ZONE,
} from "./helpers.js";

const PHASE = "http_log_custom_fields" as const;
const entrypointBody = {
  name: "Zone-level phase entry point",
  kind: "zone" as const,
  description: "This ruleset configures custom log fields.",
  phase: PHASE,
};
const customFieldsRule = {
  action: "log_custom_field" as const,
  expression: "true",
  description: "Set Logpush custom fields for HTTP requests",
  action_parameters: {
    request_fields: [{ name: "content-type" }, { name: "x-forwarded-for" }],
    transformed_request_fields: [{ name: "host" }],
    response_fields: [{ name: "server" }, { name: "content-type" }],
    raw_response_fields: [{ name: "allow" }],
    cookie_fields: [{ name: "__ga" }, { name: "accountNumber" }, { name: "__cfruid" }],
  },
};

const sandbox = sandboxForEachTest();

async function expectApiError(promise: Promise<unknown>, status: number, errors: unknown[]) {
  expect(await sdkRejection(promise)).toEqual({ status, errors });
}

describe("rulesets through the official SDK", () => {
  it("runs the documented custom fields flow: list, create the entry point, PUT the rule", async () => {
    const empty = [];
    for await (const ruleset of sandbox.client.rulesets.list({ zone_id: ZONE })) empty.push(ruleset);
    expect(empty).toEqual([]);

    const created = (await sandbox.client.rulesets.create({ zone_id: ZONE, ...entrypointBody })) as Ruleset;
    expect(created).toEqual({
      id: expect.stringMatching(HEX_ID),
      ...entrypointBody,
      version: "1",
      last_updated: expect.stringMatching(MICRO_TIMESTAMP),
      rules: [],
    });

    const listed = [];
    for await (const ruleset of sandbox.client.rulesets.list({ zone_id: ZONE })) listed.push(ruleset);
    const { rules: _rules, ...summary } = created;
    expect(listed).toEqual([summary]);

    const updated = (await sandbox.client.rulesets.update(created.id, {
      zone_id: ZONE,
      rules: [customFieldsRule],
    })) as Ruleset;
    const rule = updated.rules[0]!;
    expect(updated).toEqual({
      ...created,
      version: "2",
      last_updated: expect.stringMatching(MICRO_TIMESTAMP),
      rules: [rule],
    });
    expect(rule).toEqual({
      ...customFieldsRule,
      id: expect.stringMatching(HEX_ID),
      ref: rule.id,
      version: "1",
      enabled: true,
      last_updated: expect.stringMatching(MICRO_TIMESTAMP),
    });
    expect(await sandbox.client.rulesets.get(created.id, { zone_id: ZONE })).toEqual(updated);
    expect(await sandbox.client.rulesets.phases.get(PHASE, { zone_id: ZONE })).toEqual(updated);

    // Sending the rule back by id keeps it; changing it bumps its own version.
    const kept = (await sandbox.client.rulesets.update(created.id, {
      zone_id: ZONE,
      rules: [{ ...customFieldsRule, id: rule.id }],
    })) as Ruleset;
    expect(kept.version).toBe("3");
    expect(kept.rules[0]).toEqual(rule);
    const changed = (await sandbox.client.rulesets.update(created.id, {
      zone_id: ZONE,
      rules: [
        { ...customFieldsRule, id: rule.id, action_parameters: { request_fields: [{ name: "accept" }] } },
      ],
    })) as Ruleset;
    expect(changed.rules[0]).toMatchObject({ id: rule.id, version: "2", ref: rule.id });
  });

  it("creates the entry point on the first phase PUT and versions it after", async () => {
    await expectApiError(sandbox.client.rulesets.phases.get(PHASE, { zone_id: ZONE }), 404, [
      { code: 20001, message: "could not find entrypoint ruleset in the 'http_log_custom_fields' phase" },
    ]);
    const first = (await sandbox.client.rulesets.phases.update(PHASE, {
      zone_id: ZONE,
      rules: [customFieldsRule],
    })) as Ruleset;
    expect(first).toMatchObject({
      name: "default",
      kind: "zone",
      phase: PHASE,
      version: "1",
      description: "",
    });
    const second = (await sandbox.client.rulesets.phases.update(PHASE, {
      zone_id: ZONE,
      rules: [],
    })) as Ruleset;
    expect(second).toMatchObject({ id: first.id, version: "2", rules: [] });
    // Zones are separate.
    await expectApiError(sandbox.client.rulesets.phases.get(PHASE, { zone_id: OTHER_ZONE }), 404, [
      { code: 20001, message: "could not find entrypoint ruleset in the 'http_log_custom_fields' phase" },
    ]);
  });

  it("allows one zone ruleset per phase, as the service answers", async () => {
    await sandbox.client.rulesets.create({ zone_id: ZONE, ...entrypointBody });
    await expectApiError(sandbox.client.rulesets.create({ zone_id: ZONE, ...entrypointBody }), 400, [
      {
        code: 20217,
        message:
          "'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase http_log_custom_fields",
        source: { pointer: "/kind" },
      },
    ]);
  });

  it("lets exactly one of two simultaneous creates of the phase ruleset succeed", async () => {
    for (let round = 0; round < 5; round++) {
      const zone = `${String(round).padStart(2, "0")}${ZONE.slice(2)}`;
      const outcomes = await Promise.allSettled([
        sandbox.client.rulesets.create({ zone_id: zone, ...entrypointBody }),
        sandbox.client.rulesets.create({ zone_id: zone, ...entrypointBody }),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
      const rejected = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect((rejected.reason as InstanceType<typeof Cloudflare.APIError>).status).toBe(400);
      const all = [];
      for await (const ruleset of sandbox.client.rulesets.list({ zone_id: zone })) all.push(ruleset);
      expect(all).toHaveLength(1);
    }
  });

  it("deletes a ruleset and validates without saving on dry_run", async () => {
    const created = (await sandbox.client.rulesets.create({ zone_id: ZONE, ...entrypointBody })) as Ruleset;
    const dry = (await sandbox.client.rulesets.update(created.id, {
      zone_id: ZONE,
      rules: [customFieldsRule],
      dry_run: true,
    })) as Ruleset;
    expect(dry).toBeNull();
    expect((await sandbox.client.rulesets.get(created.id, { zone_id: ZONE })).version).toBe("1");
    await sandbox.client.rulesets.delete(created.id, { zone_id: ZONE });
    await expectApiError(sandbox.client.rulesets.get(created.id, { zone_id: ZONE }), 404, [
      { code: 20001, message: `could not find ruleset ${created.id}` },
    ]);
  });

  it("accepts an email with a global API key", async () => {
    const keyed = await runSandbox({
      apiToken: undefined,
      apiEmail: "user@example.com",
      apiKey: "global-key",
    });
    try {
      const byKey = sdk(keyed, { apiEmail: "user@example.com", apiKey: "global-key" });
      const created = (await byKey.rulesets.phases.update(PHASE, {
        zone_id: ZONE,
        rules: [customFieldsRule],
      })) as Ruleset;
      expect(created.version).toBe("1");
      await expectApiError(
        sdk(keyed, { apiEmail: "user@example.com", apiKey: "wrong" }).rulesets.phases.get(PHASE, {
          zone_id: ZONE,
        }),
        401,
        [{ code: 10000, message: "Authentication error" }],
      );
      await expectApiError(
        sdk(keyed, { apiToken: "a-token" }).rulesets.phases.get(PHASE, { zone_id: ZONE }),
        401,
        [{ code: 10000, message: "Authentication error" }],
      );
    } finally {
      await keyed.stop();
    }
  });
});

describe("the rules of the custom fields phase", () => {
  // The cases the client's check refuses too (test/api/custom-fields.test.ts, test/api/cli.test.ts).
  const cases = JSON.parse(
    readFileSync(new URL("../fixtures/custom-field-rules.json", import.meta.url), "utf8"),
  ) as {
    rule: number;
    name: string;
    limit?: CustomFieldsLimit;
    rules: unknown[];
    pointer: string;
    message: string;
  }[];

  it.each(cases)(
    "rule $rule: refuses $name (400, code 20021, the client's message, the pointer)",
    async ({ rules, pointer, message, limit }) => {
      const running = limit ? await runSandbox({ customFieldsLimit: limit }) : sandbox.running;
      const client = limit ? sdk(running) : sandbox.client;
      try {
        await expectApiError(
          client.rulesets.phases.update(PHASE, { zone_id: ZONE, rules: rules as never }),
          400,
          [{ code: 20021, message, source: { pointer } }],
        );
        await expectApiError(client.rulesets.phases.get(PHASE, { zone_id: ZONE }), 404, [
          { code: 20001, message: "could not find entrypoint ruleset in the 'http_log_custom_fields' phase" },
        ]);
      } finally {
        if (limit) await running.stop();
      }
    },
  );

  it("accepts 60 request headers and 100 cookies in one rule (100 in each list), cookie names in any case", async () => {
    const headers = Array.from({ length: 60 }, (_, i) => ({ name: `h${i}` }));
    const cookies = Array.from({ length: 100 }, (_, i) => ({ name: `Cookie${i}` }));
    const saved = (await sandbox.client.rulesets.phases.update(PHASE, {
      zone_id: ZONE,
      rules: [
        {
          action: "log_custom_field",
          expression: "true",
          action_parameters: { request_fields: headers, cookie_fields: cookies },
        },
      ],
    })) as Ruleset;
    expect(saved.rules[0]!.action_parameters).toEqual({ request_fields: headers, cookie_fields: cookies });
  });
});
