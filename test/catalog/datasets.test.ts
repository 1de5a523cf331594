import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { datasetNames, datasetScopes, getCatalog } from "../../src/catalog/index.js";
import { compile } from "../../src/compile.js";
import { runCli } from "../helpers/cli.js";

const pick = ({ filter, diagnostics }: { filter: string | null; diagnostics: unknown[] }) => ({
  filter,
  diagnostics,
});

describe("shipped datasets", () => {
  it("ships the 37 Logpush datasets, 1,029 fields, each with its scopes", () => {
    expect(datasetNames).toHaveLength(37);
    const total = datasetNames.reduce((sum, name) => sum + getCatalog(name)!.fields.size, 0);
    expect(total).toBe(1029);
    expect(getCatalog("http_requests")!.fields.size).toBe(123);
    const scopeOf = (name: string) => datasetScopes(name)!.join(",");
    const count = (scopes: string) => datasetNames.filter((name) => scopeOf(name) === scopes).length;
    expect([count("zone"), count("zone,account"), count("account")]).toEqual([7, 2, 28]);
    expect(scopeOf("gateway_http")).toBe("account");
    expect(scopeOf("firewall_events")).toBe("zone,account");
    expect(datasetScopes("http_request")).toBeUndefined();
  });

  it("checks the fields the logs changelog of 2026-09-15 added, each with its documented type", () => {
    const cases: [dataset: string, source: string, filter: string][] = [
      [
        "firewall_events",
        'ZoneName eq "example.com"',
        '{"where":{"key":"ZoneName","operator":"eq","value":"example.com"}}',
      ],
      [
        "firewall_events",
        'WAFRequestSignatureCategories contains "sqli"',
        '{"where":{"key":"WAFRequestSignatureCategories","operator":"contains","value":"sqli"}}',
      ],
      [
        "firewall_events",
        'WAFRequestSignatureRefs contains "100001"',
        '{"where":{"key":"WAFRequestSignatureRefs","operator":"contains","value":"100001"}}',
      ],
      [
        "network_analytics_logs",
        'DNSQueryName endsWith ".example.com"',
        '{"where":{"key":"DNSQueryName","operator":"endsWith","value":".example.com"}}',
      ],
      [
        "network_analytics_logs",
        'DNSQueryType eq "AAAA"',
        '{"where":{"key":"DNSQueryType","operator":"eq","value":"AAAA"}}',
      ],
      [
        "network_analytics_logs",
        "PFPCustomTag eq 7",
        '{"where":{"key":"PFPCustomTag","operator":"eq","value":"7"}}',
      ],
      [
        "warp_config_changes",
        'UserEmail endsWith "@example.com"',
        '{"where":{"key":"UserEmail","operator":"endsWith","value":"@example.com"}}',
      ],
    ];
    for (const [dataset, source, filter] of cases)
      expect({ dataset, ...pick(compile(source, { dataset })) }).toEqual({
        dataset,
        filter,
        diagnostics: [],
      });
    // An object field: known, and refused as every object field is.
    const objectField = compile("AISecurityCustomTopicCategories eq 1", { dataset: "firewall_events" });
    expect(objectField.diagnostics.map((d) => d.message)).toEqual([
      "`AISecurityCustomTopicCategories` is an object field, and Logpush cannot filter on objects",
    ]);
  });

  it("records the source of every catalog with its number of fields", () => {
    const sources = readFileSync(new URL("../../src/catalog/datasets/SOURCES.md", import.meta.url), "utf8");
    const rows = new Map(
      [...sources.matchAll(/^\| (\w+) \| (\d+) \| (.+?) @ ([0-9a-f]{12})/gm)].map((row) => [
        row[1],
        Number(row[2]),
      ]),
    );
    expect([...rows.keys()]).toEqual(datasetNames);
    for (const name of datasetNames)
      expect([name, rows.get(name)]).toEqual([name, getCatalog(name)!.fields.size]);
    const total = datasetNames.reduce((sum, name) => sum + getCatalog(name)!.fields.size, 0);
    expect(sources).toContain(`37 datasets, ${total} fields.`);
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
    expect(lines).toContain("firewall_events                      zone,account  47");
    expect(lines).toHaveLength(39);
  });

  it("lists the datasets of one scope as JSON", async () => {
    const run = await runCli(["datasets", "--scope", "zone", "--json"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      '[{"name":"account_abuse_protection_events","scopes":["zone"],"fields":19},{"name":"dns_logs","scopes":["zone"],"fields":9},{"name":"firewall_events","scopes":["zone","account"],"fields":47},{"name":"http_requests","scopes":["zone"],"fields":123},{"name":"nel_reports","scopes":["zone"],"fields":7},{"name":"page_shield_events","scopes":["zone"],"fields":10},{"name":"spectrum_events","scopes":["zone"],"fields":31},{"name":"websocket_analytics","scopes":["zone","account"],"fields":17},{"name":"zaraz_events","scopes":["zone"],"fields":7}]\n',
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
    expect(listed.fields).toHaveLength(47);
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
