// The filters the compile benches time, each in filterc's syntax and in the C-like one jsep and
// cel-js share: a small, a medium and a large one (30 comparisons), and the compile's options.

/** A comparison in both syntaxes: filterc's and the C-like one jsep and CEL share. */
const celOperators = { eq: "==", "!eq": "!=", lt: "<", leq: "<=", gt: ">", geq: ">=" };
function comparison(field, operator, value) {
  const negated = operator.startsWith("!") && operator !== "!eq";
  const positive = negated ? operator.slice(1) : operator;
  let cel;
  if (celOperators[operator]) cel = `${field} ${celOperators[operator]} ${value}`;
  else if (positive === "in") cel = `${field} in ${value}`;
  else cel = `${field}.${positive}(${value})`;
  return { filterc: `${field} ${operator} ${value}`, cel: negated ? `!(${cel})` : cel };
}
const join = (word, symbol, parts) => ({
  filterc: parts.map((p) => p.filterc).join(` ${word} `),
  cel: parts.map((p) => p.cel).join(` ${symbol} `),
});
const group = (part) => ({ filterc: `(${part.filterc})`, cel: `(${part.cel})` });
const not = (part) => ({ filterc: `not ${part.filterc}`, cel: `!${part.cel}` });

export const small = join("and", "&&", [
  comparison("EdgeResponseStatus", "geq", "500"),
  comparison("BotScore", "lt", "30"),
]);

export const medium = join("and", "&&", [
  comparison("EdgeResponseStatus", "geq", "500"),
  comparison("ClientRequestHost", "eq", '"api.example.com"'),
  not(
    group(
      join("or", "||", [
        comparison("ClientRequestPath", "startsWith", '"/health"'),
        comparison("ClientRequestMethod", "in", '["HEAD", "OPTIONS"]'),
      ]),
    ),
  ),
  comparison("ClientCountry", "!eq", '"us"'),
]);

const hosts = ["api", "www", "shop", "cdn", "docs", "blog", "auth", "img", "app", "dev"];
export const large = join(
  "and",
  "&&",
  hosts.map((host, i) =>
    group(
      join("or", "||", [
        comparison("ClientRequestHost", "eq", `"${host}.a.io"`),
        comparison("EdgeResponseStatus", i % 2 ? "geq" : "!in", i % 2 ? `${500 + i}` : `[${400 + i}, 404]`),
        comparison("BotScore", i % 3 ? "lt" : "gt", `${i}`),
      ]),
    ),
  ),
);

// The large filter has 30 comparisons and about 1,800 bytes of JSON: the byte limit is raised so
// that the whole compile runs to the end and emits.
export const options = { maxBytes: 100_000 };
export const cases = [
  ["small", small],
  ["medium", medium],
  ["large", large],
];
