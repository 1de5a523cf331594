export {
  type ClearCustomFieldsResult,
  type CustomFieldsState,
  createClient,
  type DestinationAnswer,
  type JobResult,
  LogpushClient,
  type Plan,
  type Ruleset,
  type SetCustomFieldsResult,
} from "./client.js";
export {
  CUSTOM_FIELD_COLUMNS,
  CUSTOM_FIELD_LISTS,
  type CustomFieldColumn,
  type CustomFieldList,
  type CustomFieldsCheck,
  type CustomFieldsConfig,
  checkCustomFieldRules,
  checkCustomFields,
  configFromRules,
  customFieldsRule,
  MAX_CUSTOM_FIELDS,
} from "./custom-fields.js";
export {
  checkDestination,
  destinationSecrets,
  maskDestination,
  needsOwnershipChallenge,
} from "./destination.js";
export {
  ApiError,
  type ApiFailure,
  ClientConfigError,
  type EnvelopeMessage,
  type Problem,
  ValidationError,
} from "./errors.js";
export { isJobId, type JobScope, type ZoneScope } from "./ids.js";
export {
  checkJobBody,
  DATASETS_OF_OPTION,
  DEFAULT_TIMESTAMPS,
  datasetScopeProblem,
  JOB_BODY_FIELDS,
  JOB_KINDS,
  type JobBodyCheck,
  type JobBodyContext,
  LOGPULL_TIMESTAMP_FORMATS,
  logpullAsOutputOptions,
  OUTPUT_OPTION_DEFAULTS,
  OUTPUT_OPTION_NAMES,
  OUTPUT_TYPES,
  type OutputOptions,
  TIMESTAMP_FORMATS,
  UPLOAD_LIMITS,
} from "./job-options.js";
export {
  buildCreateBody,
  buildUpdate,
  diffJob,
  type JobChange,
  type JobFilter,
  type JobSettings,
  jobFields,
  type LogpushJob,
  selectsCustomFields,
} from "./jobs.js";
export type { PlannedRequest } from "./runner.js";
export { hasControlCharacter, maskSecrets } from "./secrets.js";
export {
  type ApiRequest,
  type ClientOptions,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_PAGES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  MAX_RESPONSE_BYTES,
  MAX_TIMEOUT_MS,
  type ShownRequest,
} from "./transport.js";
