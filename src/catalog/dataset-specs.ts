/**
 * The field specs of every dataset filterc ships, by name, copied from Cloudflare's Logpush
 * documentation (see docs/library.md, "Catalogs"). The library and the browser bundle import them
 * with the code; the CLI's build puts this module's place to one that reads
 * `dist/catalogs/NAME.json` when a dataset is first asked for (build/plugins.mjs): a command
 * reads the one catalog it checks against, not 37, at each start.
 */
import type { FieldSpec } from "./catalog.js";
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

/** The names of the shipped datasets, in no order. */
export const shippedDatasets: readonly string[] = Object.keys(specsByDataset);

/** The field specs of a shipped dataset, or undefined for another name. */
export const shippedSpecs = (dataset: string): readonly FieldSpec[] | undefined =>
  Object.hasOwn(specsByDataset, dataset) ? specsByDataset[dataset] : undefined;
