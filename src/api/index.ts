export {
  type CustomFieldsState,
  createClient,
  type JobResult,
  LogpushClient,
  type Plan,
  type Ruleset,
  type SetCustomFieldsResult,
} from "./client.js";
export {
  CUSTOM_FIELD_LISTS,
  type CustomFieldList,
  type CustomFieldsCheck,
  type CustomFieldsConfig,
  checkCustomFields,
  configFromRules,
  customFieldsRule,
  MAX_CUSTOM_FIELDS,
} from "./custom-fields.js";
export { checkDestination } from "./destination.js";
export {
  ApiError,
  type ApiFailure,
  ClientConfigError,
  type EnvelopeMessage,
  type Problem,
  ValidationError,
} from "./errors.js";
export {
  buildJobBody,
  CUSTOM_FIELD_COLUMNS,
  DEFAULT_TIMESTAMPS,
  type JobFilter,
  type JobSettings,
  jobFields,
  type LogpushJob,
  selectsCustomFields,
  TIMESTAMP_FORMATS,
} from "./jobs.js";
export {
  type ApiRequest,
  type ClientOptions,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ShownRequest,
} from "./transport.js";
