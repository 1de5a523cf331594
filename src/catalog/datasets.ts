import type { Catalog, FieldSpec } from "./catalog.js";
import { createCatalog } from "./catalog.js";
import dnsLogs from "./datasets/dns_logs.json";
import firewallEvents from "./datasets/firewall_events.json";
import gatewayHttp from "./datasets/gateway_http.json";
import httpRequests from "./datasets/http_requests.json";
import nelReports from "./datasets/nel_reports.json";
import pageShieldEvents from "./datasets/page_shield_events.json";
import spectrumEvents from "./datasets/spectrum_events.json";
import workersTraceEvents from "./datasets/workers_trace_events.json";

/** The field catalogs filterc ships, copied from the Logpush documentation (see docs/library.md, "Catalogs"). */
const specsByDataset: Record<string, readonly FieldSpec[]> = {
  dns_logs: dnsLogs as FieldSpec[],
  firewall_events: firewallEvents as FieldSpec[],
  gateway_http: gatewayHttp as FieldSpec[],
  http_requests: httpRequests as FieldSpec[],
  nel_reports: nelReports as FieldSpec[],
  page_shield_events: pageShieldEvents as FieldSpec[],
  spectrum_events: spectrumEvents as FieldSpec[],
  workers_trace_events: workersTraceEvents as FieldSpec[],
};

export const DEFAULT_DATASET = "http_requests";

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
