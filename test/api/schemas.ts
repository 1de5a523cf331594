import { readFileSync } from "node:fs";
import Ajv from "ajv";
import type { Received } from "./server.js";

const load = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/reference/openapi/${name}`, import.meta.url), "utf8"));

const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema(load("logpush-job.schema.json"));
ajv.addSchema(load("rulesets.schema.json"));
ajv.addSchema(load("filter.schema.json"));

/** The official schema of each request body the client sends, by method and path. */
const job = "cf-logpush-job.schema.json#/definitions";
const bodySchemas: Array<[RegExp, string]> = [
  [/^POST \/(zones|accounts)\/[^/]+\/logpush\/jobs$/, `${job}/CreateJobBody`],
  [/^PUT \/(zones|accounts)\/[^/]+\/logpush\/jobs\/\d+$/, `${job}/UpdateJobBody`],
  [/^POST \/(zones|accounts)\/[^/]+\/logpush\/ownership$/, `${job}/OwnershipChallengeBody`],
  [/^POST \/(zones|accounts)\/[^/]+\/logpush\/ownership\/validate$/, `${job}/OwnershipValidateBody`],
  [
    /^POST \/(zones|accounts)\/[^/]+\/logpush\/validate\/destination(\/exists)?$/,
    `${job}/ValidateDestinationBody`,
  ],
  [
    /^POST \/zones\/[^/]+\/rulesets$/,
    "cf-rulesets-log-custom-fields.schema.json#/definitions/CreateRulesetBody",
  ],
  [
    /^PUT \/zones\/[^/]+\/rulesets\/[^/]+$/,
    "cf-rulesets-log-custom-fields.schema.json#/definitions/HttpLogCustomFieldsUpdateBody",
  ],
];

/** Schema errors of every body received (and of each job's parsed `filter`); empty when all are valid. */
export function invalidBodies(received: readonly Received[]): string[] {
  const problems: string[] = [];
  for (const request of received) {
    const route = `${request.method} ${request.path}`;
    if (request.body === "") continue;
    const schema = bodySchemas.find(([pattern]) => pattern.test(route))?.[1];
    if (!schema) {
      problems.push(`${route}: a body where none was expected`);
      continue;
    }
    const { filter_attack_traffic: attackTraffic, ...body } = JSON.parse(request.body) as {
      filter?: unknown;
      filter_attack_traffic?: unknown;
    };
    const validate = ajv.getSchema(schema)!;
    if (!validate(body)) problems.push(`${route}: ${ajv.errorsText(validate.errors)}`);
    // filter_attack_traffic (2026-09-18) is newer than the OpenAPI snapshot (2026-07-27): a boolean, per the docs.
    if (attackTraffic !== undefined && typeof attackTraffic !== "boolean")
      problems.push(`${route}: filter_attack_traffic must be a boolean`);
    if (typeof body.filter === "string" && body.filter !== "") {
      const validateFilter = ajv.getSchema("cf-logpush-filter.schema.json")!;
      if (!validateFilter(JSON.parse(body.filter)))
        problems.push(`${route} filter: ${ajv.errorsText(validateFilter.errors)}`);
    }
  }
  return problems;
}
