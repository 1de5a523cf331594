import { describe, expect, it } from "vitest";
import { datasetNames, datasetScopes, getCatalog } from "../../src/catalog/index.js";
import { compile } from "../../src/compile.js";
import { runCli } from "../helpers/cli.js";

describe("shipped datasets", () => {
  it("ships the 37 Logpush datasets, 1,021 fields, each with its scopes", () => {
    expect(datasetNames).toHaveLength(37);
    const total = datasetNames.reduce((sum, name) => sum + getCatalog(name)!.fields.size, 0);
    expect(total).toBe(1021);
    expect(getCatalog("http_requests")!.fields.size).toBe(123);
    const scopeOf = (name: string) => datasetScopes(name)!.join(",");
    const count = (scopes: string) => datasetNames.filter((name) => scopeOf(name) === scopes).length;
    expect([count("zone"), count("zone,account"), count("account")]).toEqual([7, 2, 28]);
    expect(scopeOf("gateway_http")).toBe("account");
    expect(scopeOf("firewall_events")).toBe("zone,account");
    expect(datasetScopes("http_request")).toBeUndefined();
  });

  it("compiles filters against account datasets", () => {
    const result = compile('QueryName endsWith ".example.com" and ResolverDecision eq "blockedByCategory"', {
      dataset: "gateway_dns",
    });
    expect(result.filter).toBe(
      '{"where":{"and":[{"key":"QueryName","operator":"endsWith","value":".example.com"},{"key":"ResolverDecision","operator":"eq","value":"blockedByCategory"}]}}',
    );
    expect(
      compile("ClientRequestHost eq 1", { dataset: "gateway_dns" }).diagnostics.map((d) => d.code),
    ).toEqual(["E0201"]);
  });
});

describe("filterc datasets", () => {
  it("lists every dataset with its scopes and field count", async () => {
    const run = await runCli(["datasets"]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "DATASET                              SCOPE         FIELDS",
      "access_requests                      account       15",
      "account_abuse_protection_events      zone          19",
    ]);
    expect(lines).toContain("firewall_events                      zone,account  43");
    expect(lines).toHaveLength(39);
  });

  it("lists the datasets of one scope as JSON", async () => {
    const run = await runCli(["datasets", "--scope", "zone", "--json"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      '[{"name":"account_abuse_protection_events","scopes":["zone"],"fields":19},{"name":"dns_logs","scopes":["zone"],"fields":9},{"name":"firewall_events","scopes":["zone","account"],"fields":43},{"name":"http_requests","scopes":["zone"],"fields":123},{"name":"nel_reports","scopes":["zone"],"fields":7},{"name":"page_shield_events","scopes":["zone"],"fields":10},{"name":"spectrum_events","scopes":["zone"],"fields":31},{"name":"websocket_analytics","scopes":["zone","account"],"fields":17},{"name":"zaraz_events","scopes":["zone"],"fields":7}]\n',
    );
  });

  it("lists a dataset's fields with type, element type, deprecation and filterability", async () => {
    const run = await runCli(["datasets", "http_requests"]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "http_requests: 123 fields, scope zone",
      "",
      "FIELD                                  TYPE    ELEMENT  DEPRECATED  FILTERABLE",
      "AISecurityCustomTopicCategories        object  -        no          no",
      "AISecurityInjectionScore               int     -        no          yes",
    ]);
    expect(lines).toContain("BotDetectionIDs                        array   int      no          yes");
    expect(lines).toContain("CacheResponseStatus                    int     -        yes         yes");
    expect(lines).toHaveLength(127);
  });

  it("gives a dataset's fields as JSON, firewall_events' unfilterable ones included", async () => {
    const run = await runCli(["datasets", "firewall_events", "--json"]);
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout) as { name: string; scopes: string[]; fields: unknown[] };
    expect(listed.name).toBe("firewall_events");
    expect(listed.scopes).toEqual(["zone", "account"]);
    expect(listed.fields).toHaveLength(43);
    expect(listed.fields.find((f) => (f as { name: string }).name === "Action")).toEqual({
      name: "Action",
      type: "string",
      elementType: null,
      docType: "string",
      deprecated: false,
      filterable: false,
      description: getCatalog("firewall_events")!.fields.get("Action")!.description,
    });
  });

  it("refuses an unknown dataset or scope as usage errors, naming what is accepted", async () => {
    const unknown = await runCli(["datasets", "gateway_htp"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr.split("\n")[0]).toBe(
      `filterc datasets: unknown dataset "gateway_htp"; known datasets: gateway_http, gateway_dns, gateway_network, audit_logs, firewall_events and 32 more (did you mean gateway_http?)`,
    );
    const scope = await runCli(["datasets", "--scope", "zones"]);
    expect(scope.code).toBe(2);
    expect(scope.stderr.split("\n")[0]).toBe('filterc datasets: --scope takes zone or account, not "zones"');
  });
});
