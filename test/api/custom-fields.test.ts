import { describe, expect, it } from "vitest";
import {
  ApiError,
  type CustomFieldsConfig,
  type CustomFieldsLimit,
  checkCustomFieldRules,
  checkCustomFields,
  createClient,
  DEFAULT_MAX_PAGES,
  type Problem,
  ValidationError,
} from "../../src/api/index.js";
import rulesCases from "../fixtures/custom-field-rules.json" with { type: "json" };
import cases from "./custom-fields-cases.json" with { type: "json" };
import { rejectionOf, useTestApi } from "./harness.js";
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
/** The ruleset as a PUT answers it: the next version, holding what was sent. */
const written = (rules: unknown[]) => ({ ...withRules(rules), version: "2" });

const client = (maxPages?: number) =>
  createClient({ baseUrl: api.baseUrl, apiToken: "t0ken-value", env: {}, ...(maxPages ? { maxPages } : {}) });

/** Scripts the list of rulesets as pages, each with no custom-fields ruleset, leading to the next cursor. */
function pages(cursors: readonly (string | null)[]): void {
  cursors.forEach((cursor, index) => {
    const next = cursors[index + 1];
    api.on(
      cursor === null ? LIST : `${LIST}?cursor=${cursor}`,
      success([otherRuleset], next === undefined ? {} : { result_info: { cursor: next } }),
    );
  });
}

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

  it("takes 100 in each list, and under the seed's limit 40 in all and refuses 41", () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `x-h${i}`);
    const seed = { limit: "seed" } as const;
    expect(checkCustomFields({ requestHeaders: names(100), cookies: names(100) }).problems).toEqual([]);
    expect(checkCustomFields({ requestHeaders: names(30), cookies: names(10) }, seed).problems).toEqual([]);
    expect(checkCustomFields({ requestHeaders: names(30), cookies: names(11) }, seed).problems).toEqual([
      {
        code: "E0607",
        path: "config",
        message: "41 custom fields given; a zone takes at most 40 across all lists (custom-field rule 4)",
      },
    ]);
  });
});

describe("checkCustomFieldRules (the sandbox answers with the same check)", () => {
  for (const c of rulesCases)
    it(`rule ${c.rule}: ${c.name}`, () => {
      const limit = "limit" in c ? { limit: c.limit as CustomFieldsLimit } : {};
      expect(checkCustomFieldRules(c.rules, limit)[0]).toEqual({
        code: c.code,
        path: c.pointer,
        message: c.message,
      });
    });

  it("lists every problem of every rule, the seed's 40 counted across rules", () => {
    const rule = (parameters: unknown) => ({
      action: "log_custom_field",
      expression: "true",
      action_parameters: parameters,
    });
    const problems = checkCustomFieldRules(
      [
        rule({ request_fields: [{ name: "X-A" }, { name: "x-b" }, { name: "x-b" }] }),
        { action: "log", expression: "false", action_parameters: { cookie_fields: [{ name: "s" }] } },
        rule({ response_fields: Array.from({ length: 37 }, (_, i) => ({ name: `r${i}` })) }),
      ],
      { limit: "seed" },
    );
    expect(problems.map((p) => `${p.code} ${p.path}`)).toEqual([
      "E0630 /rules/0/action_parameters/request_fields/0/name",
      "E0605 /rules/0/action_parameters/request_fields/2/name",
      "E0629 /rules/1/action",
      "E0629 /rules/1/expression",
      "E0607 /rules/2/action_parameters",
    ]);
  });

  it("takes 100 in each of the five lists by default, each list counted across the rules", () => {
    const names = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}` }));
    const rule = (parameters: unknown) => ({
      action: "log_custom_field",
      expression: "true",
      action_parameters: parameters,
    });
    const full = rule({
      request_fields: names("a", 100),
      transformed_request_fields: names("b", 100),
      response_fields: names("c", 100),
      raw_response_fields: names("d", 100),
      cookie_fields: names("e", 100),
    });
    expect(checkCustomFieldRules([full])).toEqual([]);
    expect(checkCustomFieldRules([rule({ request_fields: names("h", 60) })])).toEqual([]);
    expect(checkCustomFieldRules([rule({ request_fields: names("h", 60) })], { limit: "seed" })).toEqual([
      {
        code: "E0607",
        path: "/rules/0/action_parameters",
        message: "60 custom fields given; a zone takes at most 40 across all lists (custom-field rule 4)",
      },
    ]);
    const split = [rule({ response_fields: names("r", 60) }), rule({ response_fields: names("s", 41) })];
    expect(checkCustomFieldRules(split).map((p) => `${p.code} ${p.path} ${p.message}`)).toEqual([
      "E0632 /rules/1/action_parameters/response_fields 101 response headers given (response_fields); the service takes at most 100 in each list (custom-field rule 4)",
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
    api.on(PUT, success(written([rule(sentRule.rules[0]!.action_parameters)])));
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
      changes: [
        { list: "requestHeaders", name: "content-type", change: "added" },
        { list: "responseHeaders", name: "server", change: "added" },
        { list: "cookies", name: "__cfruid", change: "added" },
      ],
    });
  });

  it("follows the list's cursor to find the ruleset, and says the PUT replaced its rules", async () => {
    api.on(LIST, success([otherRuleset], { result_info: { cursor: "page2" } }));
    api.on(`${LIST}?cursor=page2`, success([emptyRuleset]));
    api.on(GET, success(withRules([rule({ request_fields: [{ name: "accept" }] })])));
    api.on(PUT, success(written([rule(sentRule.rules[0]!.action_parameters)])));
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

  it("surfaces a conflict creating the ruleset when a new list shows none made meanwhile", async () => {
    api.on(LIST, success([]));
    api.on(CREATE, failure(409, 20217, "A similar configuration with rules already exists"));
    const error = await client()
      .setCustomFields({ zoneId: ZONE }, config)
      .catch((e: unknown) => e as Error);
    expect((error as Error).message).toBe(
      "create custom fields ruleset: HTTP 409: [20217] A similar configuration with rules already exists",
    );
    expect(api.calls()).toEqual([LIST, CREATE, LIST]);
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

describe("removing and clearing custom fields", () => {
  const configured = withRules([
    rule({
      request_fields: [{ name: "x-a" }],
      response_fields: [{ name: "server" }],
      cookie_fields: [{ name: "SessionID" }],
    }),
  ]);

  it("refuses to remove names that are not configured, naming where the zone has them", async () => {
    api.on(LIST, success([emptyRuleset]));
    api.on(GET, success(configured));
    const error = await client()
      .setCustomFields(
        { zoneId: ZONE },
        { requestHeaders: ["server", "X-A"], rawResponseHeaders: ["allow"], cookies: ["sessionid"] },
        { merge: "remove" },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      {
        code: "E0628",
        path: "requestHeaders[0]",
        message:
          '"server" is not a configured request header, so it cannot be removed; the zone has it as a response header',
      },
      {
        code: "E0628",
        path: "rawResponseHeaders[0]",
        message: '"allow" is not a configured raw response header, so it cannot be removed',
      },
      {
        code: "E0628",
        path: "cookies[0]",
        message:
          '"sessionid" is not a configured cookie, so it cannot be removed; the zone has "SessionID" (cookie names are case-sensitive)',
      },
    ]);
    expect(api.calls()).toEqual([LIST, GET]);
  });

  it("clears the ruleset's rules when the last fields are removed, with a note", async () => {
    api.on(LIST, success([emptyRuleset]));
    api.on(GET, success(withRules([rule({ cookie_fields: [{ name: "SessionID" }] })])));
    api.on(PUT, success(written([])));
    const result = await client().setCustomFields(
      { zoneId: ZONE },
      { cookies: ["SessionID"] },
      { merge: "remove" },
    );
    expect(api.calls()).toEqual([LIST, GET, PUT]);
    expect(api.received[2]!.body).toBe('{"rules":[]}');
    expect(result).toEqual({
      rulesetId: RULESET,
      config: {},
      created: false,
      changed: true,
      notices: [
        "no custom fields are left: the ruleset's rules are cleared",
        "replaced the ruleset's 1 rule (a PUT replaces all rules)",
      ],
      changes: [{ list: "cookies", name: "SessionID", change: "removed" }],
    });
  });

  it("adds a cookie beside one of another letter case, with a note", async () => {
    api.on(LIST, success([emptyRuleset]));
    api.on(GET, success(configured));
    api.on(
      PUT,
      success(
        written([
          rule({
            request_fields: [{ name: "x-a" }],
            response_fields: [{ name: "server" }],
            cookie_fields: [{ name: "SessionID" }, { name: "sessionid" }],
          }),
        ]),
      ),
    );
    const result = await client().setCustomFields(
      { zoneId: ZONE },
      { cookies: ["sessionid"] },
      { merge: "add" },
    );
    expect(JSON.parse(api.received[2]!.body).rules[0].action_parameters.cookie_fields).toEqual([
      { name: "SessionID" },
      { name: "sessionid" },
    ]);
    expect(result.notices[0]).toBe(
      'cookies[0]: "sessionid" is added beside the configured "SessionID" (cookie names are case-sensitive)',
    );
  });

  it("clears by PUTting the ruleset with no rules, and writes nothing when there is nothing to clear", async () => {
    api.on(LIST, success([otherRuleset]));
    expect(await client().clearCustomFields({ zoneId: ZONE })).toEqual({
      rulesetId: null,
      changed: false,
      notices: [],
      changes: [],
    });
    expect(api.calls()).toEqual([LIST]);
    api.reset();
    api.on(LIST, success([emptyRuleset]));
    api.on(GET, success(withRules([])));
    expect(await client().clearCustomFields({ zoneId: ZONE })).toEqual({
      rulesetId: RULESET,
      changed: false,
      notices: [],
      changes: [],
    });
    expect(api.calls()).toEqual([LIST, GET]);
    api.reset();
    api.on(LIST, success([emptyRuleset]));
    api.on(GET, success(configured));
    api.on(PUT, success(written([])));
    expect(await client().clearCustomFields({ zoneId: ZONE })).toEqual({
      rulesetId: RULESET,
      changed: true,
      notices: ["replaced the ruleset's 1 rule (a PUT replaces all rules)"],
      changes: [
        { list: "requestHeaders", name: "x-a", change: "removed" },
        { list: "responseHeaders", name: "server", change: "removed" },
        { list: "cookies", name: "SessionID", change: "removed" },
      ],
    });
    expect(api.calls()).toEqual([LIST, GET, PUT]);
    expect(api.received[2]!.body).toBe('{"rules":[]}');
  });

  it("dry-runs a clear: the reads are sent, the PUT is shown", async () => {
    api.on(LIST, success([emptyRuleset]));
    api.on(GET, success(configured));
    const plan = await client().dryRun((c) => c.clearCustomFields({ zoneId: ZONE }));
    expect(plan.requests.map((r) => [r.method, r.sent, r.body, r.note])).toEqual([
      ["GET", true, null, undefined],
      ["GET", true, null, undefined],
      ["PUT", false, '{"rules":[]}', "replaces all rules of the ruleset"],
    ]);
    expect(api.calls()).toEqual([LIST, GET]);
  });
});

describe("pages of the list of rulesets", () => {
  const failureOf = (promise: Promise<unknown>) => rejectionOf(promise, ApiError);

  it("stops at the page bound when the service hands out a new cursor each time", async () => {
    pages([null, ...Array.from({ length: DEFAULT_MAX_PAGES + 5 }, (_, i) => `c${i + 1}`)]);
    const error = await failureOf(client().getCustomFields({ zoneId: ZONE }));
    expect([error.failure, error.limit, error.message]).toEqual([
      "response",
      "maxPages",
      "get custom fields: the list of rulesets goes on past 100 pages (maxPages); stopped",
    ]);
    expect(api.received.length).toBe(DEFAULT_MAX_PAGES);
    api.reset();
    pages([null, "c1", "c2", "c3"]);
    const bounded = await failureOf(client(3).getCustomFields({ zoneId: ZONE }));
    expect([bounded.message, api.received.length]).toEqual([
      "get custom fields: the list of rulesets goes on past 3 pages (maxPages); stopped",
      3,
    ]);
  });

  it("stops on a cursor given again anywhere in the sequence, also in a dry run", async () => {
    // c1 → c2 → c3 → c1: never the cursor just used, so only remembering all of them tells the loop.
    pages([null, "c1", "c2", "c3"]);
    api.on(`${LIST}?cursor=c3`, success([otherRuleset], { result_info: { cursor: "c1" } }));
    const error = await failureOf(client().getCustomFields({ zoneId: ZONE }));
    expect([error.limit, error.message]).toEqual([
      undefined,
      "get custom fields: the list of rulesets loops: page 4 gives the cursor of page 2 again; stopped",
    ]);
    expect(api.received.length).toBe(4);
    api.reset();
    pages([null, "c1", "c2", "c3"]);
    api.on(`${LIST}?cursor=c3`, success([otherRuleset], { result_info: { cursor: "c1" } }));
    const dryRun = await failureOf(
      client().dryRun((c) => c.setCustomFields({ zoneId: ZONE }, { cookies: ["sid"] })),
    );
    expect([dryRun.message, api.received.length]).toEqual([
      "set custom fields: the list of rulesets loops: page 4 gives the cursor of page 2 again; stopped",
      4,
    ]);
  });

  it("ends the list on an empty page, and refuses a cursor no URL should carry", async () => {
    api.on(LIST, success([otherRuleset], { result_info: { cursor: "c1" } }));
    api.on(`${LIST}?cursor=c1`, success([], { result_info: { cursor: "c2" } }));
    expect(await client().getCustomFields({ zoneId: ZONE })).toBeNull();
    expect(api.received.length).toBe(2);
    api.reset();
    api.on(LIST, success([otherRuleset], { result_info: { cursor: "x".repeat(3000) } }));
    const error = await failureOf(client().getCustomFields({ zoneId: ZONE }));
    expect([error.message, api.received.length]).toEqual([
      "get custom fields: the list of rulesets gives a cursor of 3000 characters on page 1, more than the 2048 a cursor may have; stopped",
      1,
    ]);
  });
});

describe("a write another one overtook", () => {
  const at = (version: string, parameters: unknown) => ({ ...withRules([rule(parameters)]), version });
  const mine = { request_fields: [{ name: "x-a" }] };
  const both = { request_fields: [{ name: "x-a" }], cookie_fields: [{ name: "sid" }] };

  it("reads the version it overwrote, keeps that write's cookie, and writes again from a fresh read", async () => {
    api.on(LIST, success([emptyRuleset]));
    // Read at version 5; another write landed as version 6 before this PUT, answered as version 7.
    const written = { request_fields: [{ name: "x-a" }], response_fields: [{ name: "server" }] };
    api.on(GET, success(at("5", { response_fields: [{ name: "server" }] })), success(at("7", written)));
    api.on(
      `${GET}/versions/6`,
      success(at("6", { response_fields: [{ name: "server" }], cookie_fields: [{ name: "sid" }] })),
    );
    api.on(
      PUT,
      success(at("7", written)),
      success(at("8", { ...both, response_fields: [{ name: "server" }] })),
    );
    const result = await client().setCustomFields(
      { zoneId: ZONE },
      { requestHeaders: ["x-a"] },
      { merge: "add" },
    );
    expect(api.calls()).toEqual([LIST, GET, PUT, `${GET}/versions/6`, GET, PUT]);
    expect(JSON.parse(api.received[5]!.body).rules[0].action_parameters).toEqual({
      request_fields: [{ name: "x-a" }],
      response_fields: [{ name: "server" }],
      cookie_fields: [{ name: "sid" }],
    });
    expect(result.changes).toEqual([{ list: "requestHeaders", name: "x-a", change: "added" }]);
    expect(result.notices.at(-1)).toBe(
      "other writes changed the custom fields while this one was made: their changes are kept (1 retry)",
    );
  });

  it("gives up after maxConflictRetries, saying so and naming the limit", async () => {
    api.on(LIST, success([emptyRuleset]));
    api.on(GET, success(at("5", {})), success(at("7", mine)));
    api.on(`${GET}/versions/6`, success(at("6", { cookie_fields: [{ name: "sid" }] })));
    api.on(PUT, success(at("7", mine)));
    const error = await rejectionOf(
      createClient({
        baseUrl: api.baseUrl,
        apiToken: "t0ken-value",
        env: {},
        maxConflictRetries: 0,
      }).setCustomFields({ zoneId: ZONE }, { requestHeaders: ["x-a"] }),
      ApiError,
    );
    expect([error.failure, error.limit, error.message]).toEqual([
      "conflict",
      "maxConflictRetries",
      "set custom fields: other writes kept landing between this one's read and its PUT (1 tries, maxConflictRetries 0); the ruleset is at version 7 and holds this change and the others' read so far; check the fields with filterc fields get",
    ]);
  });
});
