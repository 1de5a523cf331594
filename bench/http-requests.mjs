// Generated http_requests logs for the eval benchmarks: a fixed seed gives the same file on every machine.
import { closeSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { gzipSync } from "node:zlib";

/** mulberry32: a fixed seed gives the same file on every machine. */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `lines` generated http_requests records (the fields filters name, realistic values) as NDJSON into `file`. */
export function writeHttpRequests(file, lines) {
  const next = random(42);
  const pick = (values) => values[Math.floor(next() * values.length)];
  const int = (max) => Math.floor(next() * max);
  const countries = ["us", "us", "us", "de", "fr", "gb", "ca", "jp", "br", "in", "nl", "au"];
  const hosts = ["www.example.com", "api.example.com", "static.example.com", "shop.example.com"];
  const paths = [
    "/",
    "/health",
    "/api/v1/users",
    "/api/v1/orders",
    "/static/app.js",
    "/static/app.css",
    "/login",
    "/search",
  ];
  const methods = ["GET", "GET", "GET", "GET", "POST", "PUT", "HEAD", "OPTIONS"];
  const statuses = [200, 200, 200, 200, 200, 304, 301, 404, 403, 500, 502, 503];
  const cache = ["hit", "miss", "dynamic", "bypass", "expired"];
  const agents = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "curl/8.5.0",
    "Googlebot/2.1 (+http://www.google.com/bot.html)",
  ];
  const fd = openSync(file, "w");
  // Written in batches: a million lines are more text than one string may hold.
  let chunks = [];
  let start = 1_700_000_000_000_000_000n;
  for (let i = 0; i < lines; i++) {
    start += BigInt(int(5_000_000));
    const status = pick(statuses);
    const record = {
      BotScore: int(100),
      BotTags: next() < 0.2 ? ["api"] : [],
      CacheCacheStatus: pick(cache),
      CacheResponseBytes: int(100_000),
      ClientASN: 1000 + int(60_000),
      ClientCountry: pick(countries),
      ClientDeviceType: pick(["desktop", "mobile", "tablet"]),
      ClientIP: `203.0.${int(256)}.${int(256)}`,
      ClientRequestBytes: 200 + int(4000),
      ClientRequestHost: pick(hosts),
      ClientRequestMethod: pick(methods),
      ClientRequestPath: pick(paths),
      ClientRequestProtocol: pick(["HTTP/1.1", "HTTP/2", "HTTP/3"]),
      ClientRequestURI: `${pick(paths)}?q=${int(1000)}`,
      ClientRequestUserAgent: pick(agents),
      ClientSSLProtocol: pick(["TLSv1.2", "TLSv1.3"]),
      EdgeColoCode: pick(["FRA", "AMS", "SJC", "NRT", "GRU"]),
      EdgeEndTimestamp: `${start + BigInt(int(1_000_000))}`,
      EdgeResponseBytes: 300 + int(200_000),
      EdgeResponseContentType: pick(["text/html", "application/json", "image/png", "text/css"]),
      EdgeResponseStatus: status,
      EdgeStartTimestamp: `${start}`,
      OriginResponseStatus: status,
      RayID: `${(int(2 ** 30) * 2 ** 20 + int(2 ** 20)).toString(16).padStart(16, "0")}`,
      SecurityActions: next() < 0.05 ? ["block"] : [],
      WAFAttackScore: 1 + int(99),
      ZoneName: "example.com",
    };
    chunks.push(JSON.stringify(record));
    if (chunks.length === 10_000 || i === lines - 1) {
      writeSync(fd, `${chunks.join("\n")}\n`);
      chunks = [];
    }
  }
  closeSync(fd);
}

/** The benches' mixed filter: a comparison of every kind, `not` over a group, `!` operators. */
export const MIXED_FILTER =
  'EdgeResponseStatus geq 500 and ClientRequestHost in ["api.example.com", "shop.example.com"] and not (ClientRequestPath startsWith "/health" or ClientRequestMethod in ["HEAD", "OPTIONS"]) and (BotScore lt 30 or ClientCountry !in ["us", "ca"]) and CacheCacheStatus !eq "hit" and ClientRequestUserAgent !contains "bot" and EdgeResponseBytes gt 1000';

/**
 * `lines` generated records in `plain`, and the same lines cut at line ends into the `gzipped` files
 * (one gzip member each), each written only if it is not there yet.
 */
export function ensureHttpRequests(plain, lines, gzipped = []) {
  if (!existsSync(plain)) writeHttpRequests(plain, lines);
  if (gzipped.every(existsSync)) return;
  // Cut as bytes at line ends: 800 MB is more text than one string may hold.
  const bytes = readFileSync(plain);
  let start = 0;
  for (const [i, file] of gzipped.entries()) {
    const target = Math.round((bytes.length * (i + 1)) / gzipped.length);
    const end = i === gzipped.length - 1 ? bytes.length : bytes.indexOf(10, target) + 1;
    writeFileSync(file, gzipSync(bytes.subarray(start, end)));
    start = end;
  }
}
