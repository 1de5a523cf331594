import {
  type ClearCustomFieldsResult,
  CUSTOM_FIELD_LISTS,
  type CustomFieldChange,
  type CustomFieldsConfig,
  type CustomFieldsState,
  DEFAULT_MAX_CONFLICT_RETRIES,
  type LogpushClient,
  type ZoneScope,
} from "../../api/index.js";
import { terminalJson, terminalText } from "../../diagnostics/index.js";
import {
  apiFlags,
  apiFlagsUsage,
  clientFrom,
  printNotices,
  printPlan,
  runApiAction,
  scopeFrom,
} from "../api-common.js";
import { parseCommandArgs, parseCount, subcommandOf } from "../args.js";
import {
  CUSTOM_FIELDS_LIMIT_USAGE,
  customFieldsLimitFlag,
  customFieldsLimitFrom,
} from "../custom-fields-limit.js";
import { type CliIO, UsageError } from "../io.js";
import { oneLine } from "../served-text.js";

export const usage = `filterc fields get --zone ID [options]
filterc fields set|add|remove --zone ID [--request-header H]… [--response-header H]… [--cookie C]… [options]
filterc fields clear --zone ID [options]

Reads or sets the zone's custom log fields (the http_log_custom_fields ruleset). "set" replaces the
whole configuration in one call: it lists the zone's rulesets, creates the ruleset if it is missing
and PUTs its single rule (a PUT replaces every rule of the ruleset). Nothing is written when the
configuration is already in place. Checked before anything is sent, with the rules the service
holds a configuration to: at least one field, valid header and cookie names, no duplicates, a
header raw or transformed but not both, and the limit of --custom-fields-limit. Header names are
lower-cased (with a note); cookie names keep their case. "add" and "remove" read the current
configuration and add the names given to it, or remove them from it, then set the result; a name
to remove must be configured (a cookie only in its own letter case), and removing the last ones
clears the configuration. "clear" PUTs the ruleset with no rules; a zone without the ruleset has
nothing to clear. "list" and "ls" are "get". Each write prints what it changed, field by field.
A write that another one overtook (the ruleset's version moved on between its read and its PUT)
reads what the other wrote, keeps it, and writes again.

Options of set, add and remove (each may be repeated):
  --request-header H              raw request header (request_fields)
  --transformed-request-header H  request header after Transform Rules (transformed_request_fields)
  --response-header H             response header after Transform Rules (response_fields)
  --raw-response-header H         response header as the origin sent it (raw_response_fields)
  --cookie C                      cookie (cookie_fields)

Options of set, add, remove and clear:
${CUSTOM_FIELDS_LIMIT_USAGE}
  --max-conflict-retries N
                        writes done again after another write got in between (default ${DEFAULT_MAX_CONFLICT_RETRIES})

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

function describeConfig(config: CustomFieldsConfig): string {
  const lines = CUSTOM_FIELD_LISTS.filter(({ list }) => (config[list] ?? []).length > 0).map(
    ({ list, noun }) => `${noun}s: ${(config[list] ?? []).join(", ")}`,
  );
  // Names come from the service: shown with their control characters as code points.
  return lines.length > 0 ? `${terminalText(lines.join("\n"))}\n` : "no custom fields\n";
}

const subcommands = ["get", "set", "add", "remove", "clear"] as const;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const [word, ...rest] = argv;
  // "list" and "ls" are what people type for a read: they are get.
  const subcommand = subcommandOf(word, subcommands, { list: "get", ls: "get" });
  const { values } = parseCommandArgs(
    rest,
    {
      ...apiFlags,
      ...(subcommand === "get"
        ? {}
        : { ...customFieldsLimitFlag, "max-conflict-retries": { type: "string" } }),
      ...(subcommand === "get" || subcommand === "clear" ? {} : listFlags),
    },
    false,
  );
  const zone = scopeFrom(values, io, true) as ZoneScope;
  const json = values.json === true;
  const dryRun = values["dry-run"] === true;
  return runApiAction(io, `fields ${subcommand}`, json, async () => {
    const flag = (name: string) => (values as Record<string, string | undefined>)[name];
    const retries = parseCount(flag("max-conflict-retries"), "--max-conflict-retries");
    const client = clientFrom(values, io, {
      customFieldsLimit: customFieldsLimitFrom({ "custom-fields-limit": flag("custom-fields-limit") }),
      ...(retries === undefined ? {} : { maxConflictRetries: retries }),
    });
    if (subcommand === "get") {
      if (dryRun) {
        printPlan(io, await client.dryRun((c) => c.getCustomFields(zone)), [], json);
        return 0;
      }
      const state = client.masked(await client.getCustomFields(zone));
      io.stdout(json ? `${terminalJson(state)}\n` : describeState(state));
      return 0;
    }
    if (subcommand === "clear") {
      if (dryRun) {
        const plan = await client.dryRun((c) => c.clearCustomFields(zone));
        printPlan(io, plan, plan.result.notices, json);
        return 0;
      }
      const result = client.masked(await client.clearCustomFields(zone));
      if (json) {
        io.stdout(`${terminalJson(result)}\n`);
        return 0;
      }
      printNotices(io, result.notices);
      io.stdout(`${describeClear(result)}${describeFieldChanges(result.changes)}`);
      return 0;
    }
    const config: CustomFieldsConfig = {};
    const given = values as Record<string, string[] | undefined>;
    for (const { list } of CUSTOM_FIELD_LISTS) {
      const names = given[flagOfList[list]];
      if (names !== undefined) config[list] = names;
    }
    if (subcommand !== "set" && Object.keys(config).length === 0)
      throw new UsageError(
        `fields ${subcommand} needs at least one --request-header, --response-header or --cookie…`,
      );
    const options = subcommand === "set" ? {} : { merge: subcommand as "add" | "remove" };
    const call = (c: LogpushClient) => c.setCustomFields(zone, config, options);
    if (dryRun) {
      const plan = await client.dryRun(call);
      printPlan(io, plan, plan.result.notices, json);
      return 0;
    }
    const result = client.masked(await call(client));
    if (json) {
      io.stdout(`${terminalJson(result)}\n`);
      return 0;
    }
    printNotices(io, result.notices);
    const cleared = Object.keys(result.config).length === 0;
    const what = !result.changed
      ? "unchanged"
      : result.created
        ? "set (ruleset created)"
        : cleared
          ? "cleared"
          : "set";
    io.stdout(
      `custom fields ${what}: ruleset ${oneLine(String(result.rulesetId))}\n${describeFieldChanges(result.changes)}${describeConfig(result.config)}`,
    );
    return 0;
  });
}

/** What a write changed, one line a field, as `jobs update` prints its changes: `  + request header x-id`. */
function describeFieldChanges(changes: readonly CustomFieldChange[]): string {
  return changes
    .map(({ list, name, change }) => {
      const { noun } = CUSTOM_FIELD_LISTS.find((entry) => entry.list === list)!;
      // Names come from the service (a removed one) or the command line: shown as one line.
      return `  ${change === "added" ? "+" : "-"} ${noun} ${oneLine(name)}\n`;
    })
    .join("");
}

function describeClear(result: ClearCustomFieldsResult): string {
  if (result.rulesetId === null) return "nothing to clear: the zone has no http_log_custom_fields ruleset\n";
  // The id comes from the service: shown with its control characters as code points.
  const ruleset = oneLine(String(result.rulesetId));
  if (!result.changed) return `nothing to clear: ruleset ${ruleset} has no rules\n`;
  return `custom fields cleared: ruleset ${ruleset} has no rules\n`;
}

function describeState(state: CustomFieldsState | null): string {
  if (state === null) return "no custom fields (the zone has no http_log_custom_fields ruleset)\n";
  return `ruleset ${oneLine(String(state.rulesetId))}
${describeConfig(state.config)}`;
}
