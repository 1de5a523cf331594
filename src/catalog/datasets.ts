import { closestMatch, editDistance } from "../diagnostics/index.js";
import type { Catalog, FieldSpec } from "./catalog.js";
import { createCatalog } from "./catalog.js";
import accessRequests from "./datasets/access_requests.json";
import accountAbuseProtectionEvents from "./datasets/account_abuse_protection_events.json";
import auditLogs from "./datasets/audit_logs.json";
import auditLogsV2 from "./datasets/audit_logs_v2.json";
import bisoUserActions from "./datasets/biso_user_actions.json";
import casbFindings from "./datasets/casb_findings.json";
import devicePostureResults from "./datasets/device_posture_results.json";
import dexApplicationTests from "./datasets/dex_application_tests.json";
import dexDeviceStateEvents from "./datasets/dex_device_state_events.json";
import dlpForensicCopies from "./datasets/dlp_forensic_copies.json";
import dnsFirewallLogs from "./datasets/dns_firewall_logs.json";
import dnsLogs from "./datasets/dns_logs.json";
import emailSecurityAlerts from "./datasets/email_security_alerts.json";
import emailSecurityPostDeliveryEvents from "./datasets/email_security_post_delivery_events.json";
import firewallEvents from "./datasets/firewall_events.json";
import gatewayDns from "./datasets/gateway_dns.json";
import gatewayHttp from "./datasets/gateway_http.json";
import gatewayNetwork from "./datasets/gateway_network.json";
import httpRequests from "./datasets/http_requests.json";
import ipsecLogs from "./datasets/ipsec_logs.json";
import magicBgpLogs from "./datasets/magic_bgp_logs.json";
import magicIdsDetections from "./datasets/magic_ids_detections.json";
import mcpPortalLogs from "./datasets/mcp_portal_logs.json";
import mnmFlowLogs from "./datasets/mnm_flow_logs.json";
import nelReports from "./datasets/nel_reports.json";
import networkAnalyticsLogs from "./datasets/network_analytics_logs.json";
import pageShieldEvents from "./datasets/page_shield_events.json";
import scopesByDataset from "./datasets/scopes.json";
import sinkholeHttpLogs from "./datasets/sinkhole_http_logs.json";
import spectrumEvents from "./datasets/spectrum_events.json";
import sshLogs from "./datasets/ssh_logs.json";
import turnstileEvents from "./datasets/turnstile_events.json";
import warpConfigChanges from "./datasets/warp_config_changes.json";
import warpToggleChanges from "./datasets/warp_toggle_changes.json";
import websocketAnalytics from "./datasets/websocket_analytics.json";
import workersTraceEvents from "./datasets/workers_trace_events.json";
import zarazEvents from "./datasets/zaraz_events.json";
import zeroTrustNetworkSessions from "./datasets/zero_trust_network_sessions.json";

/**
 * The field catalogs filterc ships: every Logpush dataset, copied from Cloudflare's Logpush
 * documentation (see docs/library.md, "Catalogs").
 */
const specsByDataset: Record<string, readonly FieldSpec[]> = {
  access_requests: accessRequests as FieldSpec[],
  account_abuse_protection_events: accountAbuseProtectionEvents as FieldSpec[],
  audit_logs: auditLogs as FieldSpec[],
  audit_logs_v2: auditLogsV2 as FieldSpec[],
  biso_user_actions: bisoUserActions as FieldSpec[],
  casb_findings: casbFindings as FieldSpec[],
  device_posture_results: devicePostureResults as FieldSpec[],
  dex_application_tests: dexApplicationTests as FieldSpec[],
  dex_device_state_events: dexDeviceStateEvents as FieldSpec[],
  dlp_forensic_copies: dlpForensicCopies as FieldSpec[],
  dns_firewall_logs: dnsFirewallLogs as FieldSpec[],
  dns_logs: dnsLogs as FieldSpec[],
  email_security_alerts: emailSecurityAlerts as FieldSpec[],
  email_security_post_delivery_events: emailSecurityPostDeliveryEvents as FieldSpec[],
  firewall_events: firewallEvents as FieldSpec[],
  gateway_dns: gatewayDns as FieldSpec[],
  gateway_http: gatewayHttp as FieldSpec[],
  gateway_network: gatewayNetwork as FieldSpec[],
  http_requests: httpRequests as FieldSpec[],
  ipsec_logs: ipsecLogs as FieldSpec[],
  magic_bgp_logs: magicBgpLogs as FieldSpec[],
  magic_ids_detections: magicIdsDetections as FieldSpec[],
  mcp_portal_logs: mcpPortalLogs as FieldSpec[],
  mnm_flow_logs: mnmFlowLogs as FieldSpec[],
  nel_reports: nelReports as FieldSpec[],
  network_analytics_logs: networkAnalyticsLogs as FieldSpec[],
  page_shield_events: pageShieldEvents as FieldSpec[],
  sinkhole_http_logs: sinkholeHttpLogs as FieldSpec[],
  spectrum_events: spectrumEvents as FieldSpec[],
  ssh_logs: sshLogs as FieldSpec[],
  turnstile_events: turnstileEvents as FieldSpec[],
  warp_config_changes: warpConfigChanges as FieldSpec[],
  warp_toggle_changes: warpToggleChanges as FieldSpec[],
  websocket_analytics: websocketAnalytics as FieldSpec[],
  workers_trace_events: workersTraceEvents as FieldSpec[],
  zaraz_events: zarazEvents as FieldSpec[],
  zero_trust_network_sessions: zeroTrustNetworkSessions as FieldSpec[],
};

/** Where a dataset's jobs live: under `/zones/{zone_id}` or `/accounts/{account_id}`. */
export type ScopeKind = "zone" | "account";

export const SCOPES: readonly ScopeKind[] = ["zone", "account"];

/** The dataset a filter is checked against when neither an option nor the source names one. */
export const DEFAULT_DATASET = "http_requests";

/** The names of every Logpush dataset with a catalog, sorted. */
export const datasetNames: readonly string[] = Object.keys(specsByDataset).sort();

const built = new Map<string, Catalog>();

/** The shipped catalog of `dataset`, or undefined when filterc does not ship it. Built once, on first use. */
export function getCatalog(dataset: string): Catalog | undefined {
  let catalog = built.get(dataset);
  if (!catalog) {
    const specs = Object.hasOwn(specsByDataset, dataset) ? specsByDataset[dataset] : undefined;
    if (!specs) return undefined;
    catalog = createCatalog(dataset, specs);
    built.set(dataset, catalog);
  }
  return catalog;
}

/** The scopes a shipped dataset exists in (zone, account or both), or undefined for an unknown dataset. */
export function datasetScopes(dataset: string): readonly ScopeKind[] | undefined {
  const scopes = scopesByDataset as Record<string, ScopeKind[]>;
  return Object.hasOwn(scopes, dataset) ? scopes[dataset] : undefined;
}

/** How many dataset names a message about an unknown one lists: the nearest, not all of them. */
const NEAREST_DATASETS = 5;

/**
 * The dataset names nearest `unknown` for a message about it, and how many others there are, with
 * the closest one offered when one is near: the nearest few, since the whole list (37 names) buried
 * the message. A name that starts with the word, then one that holds it (`http` in gateway_http), is
 * nearer than any other.
 */
export function knownDatasets(unknown: string): string {
  const word = unknown.toLowerCase();
  const score = (name: string) =>
    (name.startsWith(word) ? 0 : name.includes(word) ? 500 : 1000) + editDistance(word, name);
  const nearest = [...datasetNames]
    .sort((a, b) => score(a) - score(b) || (a < b ? -1 : 1))
    .slice(0, NEAREST_DATASETS);
  const closest = closestMatch(unknown, datasetNames);
  const listed = closest
    ? [closest, ...nearest.filter((name) => name !== closest)].slice(0, NEAREST_DATASETS)
    : nearest;
  const others = datasetNames.length - listed.length;
  return `${listed.join(", ")}${others > 0 ? ` and ${others} more` : ""}${closest ? ` (did you mean ${closest}?)` : ""}`;
}
