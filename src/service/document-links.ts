import { datasetScopes, getCatalog } from "../catalog/index.js";
import type { Analysis } from "./analysis.js";
import { offsets, walkExpressions } from "./syntax-tree.js";
import type { DocumentLink } from "./types.js";

/** Where Cloudflare documents the Logpush datasets: a page per dataset, in its scope's folder. */
const DATASET_PAGES = "https://developers.cloudflare.com/logs/logpush/logpush-job/datasets";

/**
 * Links from each field name to its entry on its dataset's page of Cloudflare's documentation,
 * which has a heading per field (`## ClientCountry`, `## CacheResponseStatus (deprecated)`): the
 * page of the dataset's first scope (the zone page where there are both, as the catalog is read
 * from it). Names the catalog does not have, and catalogs filterc does not ship, get no link.
 */
export function documentLinks(analysis: Analysis): DocumentLink[] {
  const catalog = analysis.catalog;
  if (!catalog || analysis.options.catalog !== undefined || getCatalog(catalog.dataset) !== catalog)
    return [];
  const scope = datasetScopes(catalog.dataset)?.[0];
  if (!scope) return [];
  const page = `${DATASET_PAGES}/${scope}/${catalog.dataset}/`;
  const links: DocumentLink[] = [];
  walkExpressions(analysis.compiled.ast.expr, (expr) => {
    if (expr.kind !== "comparison") return;
    const field = catalog.fields.get(expr.field.name);
    if (!field) return;
    const heading = `${field.name}${field.deprecated ? " (deprecated)" : ""}`;
    links.push({
      range: offsets(expr.field.range),
      target: `${page}#${anchorOf(heading)}`,
      tooltip: `${field.name} in the ${catalog.dataset} dataset's documentation`,
    });
  });
  return links;
}

/** A heading's anchor as the documentation site makes it: lower case, words joined by `-`. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .trim()
    .replace(/ +/g, "-");
}
