export {
  type ClearCustomFieldsResult,
  type CustomFieldsState,
  createClient,
  type DestinationAnswer,
  type JobResult,
  LogpushClient,
  type Plan,
  type SetCustomFieldsResult,
} from "./client.js";
export {
  type ActionParameters,
  CUSTOM_FIELD_COLUMNS,
  CUSTOM_FIELD_LISTS,
  CUSTOM_FIELDS_LIMITS,
  type CustomFieldColumn,
  type CustomFieldList,
  type CustomFieldsCheck,
  type CustomFieldsConfig,
  type CustomFieldsLimit,
  checkCustomFieldRules,
  checkCustomFields,
  configFromRules,
  customFieldsLimitWords,
  customFieldsRule,
  DEFAULT_CUSTOM_FIELDS_LIMIT,
  isCustomFieldsLimit,
} from "./custom-fields.js";
export type { CustomFieldChange } from "./custom-fields-write.js";
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
export {
  type ExplorerDataset,
  type ExplorerDatasetRef,
  type ExplorerFilterResult,
  type ExplorerFilterSettings,
  explorerFilterOf,
} from "./explorer.js";
export { isJobId, type JobScope, type ResolvedScope, type ZoneScope } from "./ids.js";
export {
  DEFAULT_INSTANT_LOGS_FIELDS,
  INSTANT_LOGS_DATASET,
  type InstantLogsResult,
  type InstantLogsSession,
  type InstantLogsSettings,
  MAX_INSTANT_LOGS_SAMPLE,
  maskedSessionAddress,
  type SessionEnding,
  sessionEnding,
  sessionRecords,
} from "./instant-logs.js";
export {
  JOB_BODY_FIELDS,
  JOB_OPTIONS,
  type JobOption,
  type JobOptionFlag,
  type StoredJobField,
} from "./job-option-table.js";
export {
  checkJobBody,
  DEFAULT_TIMESTAMPS,
  datasetScopeProblem,
  type JobBodyCheck,
  type JobBodyContext,
  LOGPULL_TIMESTAMP_FORMATS,
  logpullAsOutputOptions,
  OUTPUT_OPTION_DEFAULTS,
  OUTPUT_TYPES,
  type OutputOptions,
  type OutputType,
  TIMESTAMP_FORMATS,
  type TimestampFormat,
} from "./job-options.js";
export {
  buildCreateBody,
  buildUpdate,
  type JobChange,
  type JobFilter,
  type JobSettings,
  jobFields,
  type LogpushJob,
} from "./jobs.js";
export type { PlannedRequest } from "./runner.js";
export { hasControlCharacter, maskSecrets } from "./secrets.js";
export {
  type ApiRequest,
  type ClientOptions,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_CONFLICT_RETRIES,
  DEFAULT_MAX_PAGES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  type HttpMethod,
  MAX_RESPONSE_BYTES,
  MAX_TIMEOUT_MS,
  type ShownRequest,
} from "./transport.js";
