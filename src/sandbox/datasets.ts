import { type Catalog, getCatalog } from "../catalog/index.js";
import { invalidJob } from "./errors.js";

/** The datasets of the OpenAPI `dataset` enum. */
const knownDatasets = new Set([
  "access_requests",
  "audit_logs",
  "audit_logs_v2",
  "biso_user_actions",
  "casb_findings",
  "device_posture_results",
  "dex_application_tests",
  "dex_device_state_events",
  "dlp_forensic_copies",
  "dns_firewall_logs",
  "dns_logs",
  "email_security_alerts",
  "email_security_post_delivery_events",
  "firewall_events",
  "gateway_dns",
  "gateway_http",
  "gateway_network",
  "http_requests",
  "ipsec_logs",
  "magic_ids_detections",
  "mcp_portal_logs",
  "mnm_flow_logs",
  "nel_reports",
  "network_analytics_logs",
  "page_shield_events",
  "sinkhole_http_logs",
  "spectrum_events",
  "ssh_logs",
  "turnstile_events",
  "warp_config_changes",
  "warp_toggle_changes",
  "websocket_analytics",
  "workers_trace_events",
  "zaraz_events",
  "zero_trust_network_sessions",
]);

/** The catalog of a dataset the sandbox serves: one of the API's datasets that filterc ships fields for. */
export function datasetCatalog(dataset: unknown): Catalog {
  if (typeof dataset !== "string" || !knownDatasets.has(dataset))
    throw invalidJob(`dataset ${JSON.stringify(dataset)} is unknown`);
  const catalog = getCatalog(dataset);
  if (!catalog)
    throw invalidJob(
      `dataset ${JSON.stringify(dataset)} is not served by the sandbox (filterc ships no field catalog for it)`,
    );
  return catalog;
}
