import { CUSTOM_FIELD_LISTS, type CustomFieldsConfig, type CustomFieldsState } from "../../api/index.js";
import { terminalText } from "../../diagnostics/terminal-text.js";
import {
  apiFlags,
  apiFlagsUsage,
  clientFrom,
  printNotices,
  printPlan,
  requireZone,
  runApiAction,
} from "../api-common.js";
import { parseCommandArgs } from "../args.js";
import { type CliIO, UsageError } from "../io.js";

export const usage = `filterc fields get --zone ID [options]
filterc fields set --zone ID [--request-header H]… [--response-header H]… [--cookie C]… [options]

Reads or sets the zone's custom log fields (the http_log_custom_fields ruleset). "set" replaces the
whole configuration in one call: it lists the zone's rulesets, creates the ruleset if it is missing
and PUTs its single rule (a PUT replaces every rule of the ruleset). Nothing is written when the
configuration is already in place. Checked before anything is sent: at least one field, valid
header and cookie names, no duplicates, a header raw or transformed but not both, at most 40 fields.
Header names are lower-cased (with a note); cookie names keep their case.

Options of set (each may be repeated):
  --request-header H              raw request header (request_fields)
  --transformed-request-header H  request header after Transform Rules (transformed_request_fields)
  --response-header H             response header after Transform Rules (response_fields)
  --raw-response-header H         response header as the origin sent it (raw_response_fields)
  --cookie C                      cookie (cookie_fields)

${apiFlagsUsage}
Exit status: 0 success, 1 API or validation error, 2 usage.`;

const listFlags = {
  "request-header": { type: "string", multiple: true },
  "transformed-request-header": { type: "string", multiple: true },
  "response-header": { type: "string", multiple: true },
  "raw-response-header": { type: "string", multiple: true },
  cookie: { type: "string", multiple: true },
} as const;

const flagOfList: Record<keyof CustomFieldsConfig, keyof typeof listFlags> = {
  requestHeaders: "request-header",
  transformedRequestHeaders: "transformed-request-header",
  responseHeaders: "response-header",
  rawResponseHeaders: "raw-response-header",
  cookies: "cookie",
};

const labelOfList: Record<keyof CustomFieldsConfig, string> = {
  requestHeaders: "request headers",
  transformedRequestHeaders: "transformed request headers",
  responseHeaders: "response headers",
  rawResponseHeaders: "raw response headers",
  cookies: "cookies",
};

function describeConfig(config: CustomFieldsConfig): string {
  const lines = CUSTOM_FIELD_LISTS.filter(({ list }) => (config[list] ?? []).length > 0).map(
    ({ list }) => `${labelOfList[list]}: ${(config[list] ?? []).join(", ")}`,
  );
  // Names come from the service: shown with their control characters as code points.
  return lines.length > 0 ? `${terminalText(lines.join("\n"))}\n` : "no custom fields\n";
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand !== "get" && subcommand !== "set")
    throw new UsageError(
      subcommand === undefined
        ? "say get or set"
        : `unknown subcommand ${JSON.stringify(subcommand)}; use get or set`,
    );
  const { values } = parseCommandArgs(
    rest,
    { ...apiFlags, ...(subcommand === "set" ? listFlags : {}) },
    false,
  );
  const zone = requireZone(values);
  const json = values.json === true;
  return runApiAction(io, `fields ${subcommand}`, json, async () => {
    const client = clientFrom(values, io);
    if (subcommand === "get") {
      if (values["dry-run"]) {
        printPlan(io, client.plan.getCustomFields(zone), json);
        return 0;
      }
      const state = await client.getCustomFields(zone);
      io.stdout(json ? `${JSON.stringify(state)}\n` : describeState(state));
      return 0;
    }
    const config: CustomFieldsConfig = {};
    const given = values as Record<string, string[] | undefined>;
    for (const { list } of CUSTOM_FIELD_LISTS) {
      const names = given[flagOfList[list]];
      if (names !== undefined) config[list] = names;
    }
    if (values["dry-run"]) {
      printPlan(io, client.plan.setCustomFields(zone, config), json);
      return 0;
    }
    const result = await client.setCustomFields(zone, config);
    if (json) {
      io.stdout(`${JSON.stringify(result)}\n`);
      return 0;
    }
    printNotices(io, result.notices);
    const what = !result.changed ? "unchanged" : result.created ? "set (ruleset created)" : "set";
    io.stdout(`custom fields ${what}: ruleset ${result.rulesetId}\n${describeConfig(result.config)}`);
    return 0;
  });
}

function describeState(state: CustomFieldsState | null): string {
  if (state === null) return "no custom fields (the zone has no http_log_custom_fields ruleset)\n";
  return `ruleset ${state.rulesetId}\n${describeConfig(state.config)}`;
}
