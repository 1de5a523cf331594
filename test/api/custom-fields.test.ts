import { describe, expect, it } from "vitest";
import {
  type CustomFieldsConfig,
  checkCustomFields,
  createClient,
  type Problem,
  ValidationError,
} from "../../src/api/index.js";
import cases from "./custom-fields-cases.json" with { type: "json" };
import { useTestApi } from "./harness.js";
import { failure, success } from "./server.js";

const api = useTestApi();

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const RULESET = "2c0fc9fa937b11eaa1b71c4d701ab86e";
const LIST = `GET /zones/${ZONE}/rulesets`;
const GET = `GET /zones/${ZONE}/rulesets/${RULESET}`;
const CREATE = `POST /zones/${ZONE}/rulesets`;
const PUT = `PUT /zones/${ZONE}/rulesets/${RULESET}`;

const otherRuleset = {
  id: "aaaa",
  kind: "zone",
  phase: "http_request_firewall_custom",
  name: "waf",
  version: "1",
};
const emptyRuleset = {
  id: RULESET,
  kind: "zone",
  phase: "http_log_custom_fields",
  name: "entry",
  version: "1",
};
const rule = (actionParameters: unknown) => ({
  id: "r1",
  version: "1",
  last_updated: "2026-01-01T00:00:00Z",
  action: "log_custom_field",
  expression: "true",
  enabled: true,
  description: "",
  action_parameters: actionParameters,
});
const withRules = (rules: unknown[]) => ({ ...emptyRuleset, last_updated: "2026-01-01T00:00:00Z", rules });

const client = () => createClient({ baseUrl: api.baseUrl, apiToken: "t0ken-value", env: {} });

describe("checkCustomFields", () => {
  for (const c of cases) {
    it(c.name, () => {
      const checked = checkCustomFields(c.config as CustomFieldsConfig);
      expect(checked.problems).toEqual(c.problems);
      expect(checked.notices).toEqual(c.notices);
      expect(checked.ok).toBe(c.problems.length === 0);
      if ("actionParameters" in c) expect(checked.actionParameters).toEqual(c.actionParameters);
    });
  }

  it("takes 40 fields and refuses 41", () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `x-h${i}`);
    expect(checkCustomFields({ requestHeaders: names(30), cookies: names(10) }).problems).toEqual([]);
    expect(checkCustomFields({ requestHeaders: names(30), cookies: names(11) }).problems).toEqual([
      {
        code: "E0607",
        path: "config",
        message: "41 custom fields given; a zone takes at most 40 across all lists",
      },
    ]);
  });
});

describe("setCustomFields", () => {
  const config = { requestHeaders: ["Content-Type"], responseHeaders: ["server"], cookies: ["__cfruid"] };
  const sentRule = {
    rules: [
      {
        action: "log_custom_field",
        expression: "true",
        description: "Set Logpush custom fields for HTTP requests",
        enabled: true,
        action_parameters: {
          request_fields: [{ name: "content-type" }],
          response_fields: [{ name: "server" }],
          cookie_fields: [{ name: "__cfruid" }],
        },
      },
    ],
  };

  it("creates the ruleset when the zone has none, then PUTs the rule", async () => {
    const created = withRules([]);
    api.on(LIST, success([otherRuleset]));
    api.on(CREATE, success(created));
    api.on(PUT, success(withRules([rule(sentRule.rules[0]!.action_parameters)])));
    const result = await client().setCustomFields({ zoneId: ZONE }, config);
    expect(api.calls()).toEqual([LIST, CREATE, PUT]);
    expect(api.received[1]!.body).toBe(
      '{"name":"Zone-level phase entry point","kind":"zone","description":"This ruleset configures custom log fields.","phase":"http_log_custom_fields"}',
    );
    expect(JSON.parse(api.received[2]!.body)).toEqual(sentRule);
    expect(api.received[2]!.headers["content-type"]).toBe("application/json");
    expect(result).toEqual({
      rulesetId: RULESET,
      config: { requestHeaders: ["content-type"], responseHeaders: ["server"], cookies: ["__cfruid"] },
      created: true,
      changed: true,
      notices: [
        'requestHeaders[0]: header name "Content-Type" sent as "content-type" (header names are lower case)',
      ],
    });
  });

  it("follows the list's cursor to find the ruleset, and says the PUT replaced its rules", async () => {
    api.on(LIST, success([otherRuleset], { result_info: { cursor: "page2" } }));
    api.on(`${LIST}?cursor=page2`, success([emptyRuleset]));
    api.on(GET, success(withRules([rule({ request_fields: [{ name: "accept" }] })])));
    api.on(PUT, success(withRules([rule(sentRule.rules[0]!.action_parameters)])));
    const result = await client().setCustomFields({ zoneId: ZONE }, config);
    expect(api.calls()).toEqual([LIST, `${LIST}?cursor=page2`, GET, PUT]);
    expect([result.created, result.changed, result.notices[1]]).toEqual([
      false,
      true,
      "replaced the ruleset's 1 rule (a PUT replaces all rules)",
    ]);
  });

  it("writes nothing when the ruleset already holds the configuration", async () => {
    api.on(LIST, success([emptyRuleset]));
    api.on(GET, success(withRules([rule(sentRule.rules[0]!.action_parameters)])));
    const result = await client().setCustomFields({ zoneId: ZONE }, config);
    expect(api.calls()).toEqual([LIST, GET]);
    expect([result.changed, result.created]).toEqual([false, false]);
  });

  it("refuses an invalid configuration before sending anything", async () => {
    const error = await client()
      .setCustomFields({ zoneId: ZONE }, { requestHeaders: ["bad header"] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems.map((p: Problem) => p.code)).toEqual(["E0602"]);
    expect(api.received).toEqual([]);
  });

  it("surfaces a conflict creating the ruleset", async () => {
    api.on(LIST, success([]));
    api.on(CREATE, failure(409, 20217, "A similar configuration with rules already exists"));
    const error = await client()
      .setCustomFields({ zoneId: ZONE }, config)
      .catch((e: unknown) => e as Error);
    expect((error as Error).message).toBe(
      "create custom fields ruleset: HTTP 409: [20217] A similar configuration with rules already exists",
    );
    expect(api.calls()).toEqual([LIST, CREATE]);
  });
});

describe("getCustomFields", () => {
  it("is null when the zone has no ruleset for the phase", async () => {
    api.on(LIST, success([otherRuleset]));
    expect(await client().getCustomFields({ zoneId: ZONE })).toBeNull();
  });

  it("reads every list of the rule", async () => {
    api.on(LIST, success([emptyRuleset]));
    api.on(
      GET,
      success(
        withRules([
          rule({
            request_fields: [{ name: "content-type" }],
            transformed_request_fields: [{ name: "host" }],
            raw_response_fields: [{ name: "allow", preserve_duplicates: true }],
            cookie_fields: [{ name: "accountNumber" }],
          }),
        ]),
      ),
    );
    expect(await client().getCustomFields({ zoneId: ZONE })).toEqual({
      rulesetId: RULESET,
      config: {
        requestHeaders: ["content-type"],
        transformedRequestHeaders: ["host"],
        rawResponseHeaders: ["allow"],
        cookies: ["accountNumber"],
      },
    });
    expect(api.calls()).toEqual([LIST, GET]);
  });
});
