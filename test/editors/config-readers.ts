/*
 * A small, strict reader for the configuration language of an editor that cannot run here (Helix's
 * TOML), so that a test holds the documented setup to its syntax. It reads the subset the setup
 * uses and throws, with the line, on anything else.
 */

export type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };
type Table = { [key: string]: TomlValue };

/** TOML: tables, arrays of tables, bare and dotted keys, strings, integers, booleans, arrays, inline tables. */
export function readToml(text: string): Table {
  const root: Table = {};
  let table = root;
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    const where = `line ${index + 1}`;
    const line = stripTomlComment(raw).trim();
    if (line === "") continue;
    const header = /^(\[\[?)\s*([A-Za-z0-9_.-]+)\s*(\]\]?)$/.exec(line);
    if (header) {
      if (header[1]!.length !== header[3]!.length) throw new Error(`${where}: unbalanced table header`);
      const path = header[2]!.split(".");
      const parent = descend(root, path.slice(0, -1), where);
      const last = path[path.length - 1]!;
      if (header[1] === "[[") {
        parent[last] ??= [];
        const list = parent[last];
        if (!Array.isArray(list)) throw new Error(`${where}: ${last} is not an array of tables`);
        table = {};
        list.push(table);
      } else {
        if (parent[last] !== undefined) throw new Error(`${where}: table ${header[2]} defined twice`);
        table = parent[last] = {};
      }
      continue;
    }
    const reader = new TomlReader(line, where);
    const [key, value] = reader.pair();
    reader.end();
    assign(table, key, value, where);
  }
  return root;
}

function stripTomlComment(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"' && line[i - 1] !== "\\") quoted = !quoted;
    if (line[i] === "#" && !quoted) return line.slice(0, i);
  }
  return line;
}

function descend(table: Table, path: string[], where: string): Table {
  let current = table;
  for (const part of path) {
    current[part] ??= {};
    const next = current[part];
    if (typeof next !== "object" || Array.isArray(next)) throw new Error(`${where}: ${part} is not a table`);
    current = next;
  }
  return current;
}

function assign(table: Table, key: string[], value: TomlValue, where: string): void {
  const parent = descend(table, key.slice(0, -1), where);
  const last = key[key.length - 1]!;
  if (parent[last] !== undefined) throw new Error(`${where}: key ${key.join(".")} defined twice`);
  parent[last] = value;
}

class TomlReader {
  private at = 0;
  constructor(
    private readonly text: string,
    private readonly where: string,
  ) {}

  private fail(what: string): never {
    throw new Error(`${this.where}, column ${this.at + 1}: ${what}`);
  }
  private blank() {
    while (this.text[this.at] === " " || this.text[this.at] === "\t") this.at++;
  }
  private expect(char: string) {
    this.blank();
    if (this.text[this.at] !== char) this.fail(`expected ${char}`);
    this.at++;
  }
  end() {
    this.blank();
    if (this.at !== this.text.length) this.fail("unexpected text");
  }
  private key(): string[] {
    const parts: string[] = [];
    do {
      this.blank();
      const bare = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.at));
      if (bare) {
        parts.push(bare[0]);
        this.at += bare[0].length;
      } else if (this.text[this.at] === '"') parts.push(this.string());
      else this.fail("expected a key");
      this.blank();
    } while (this.text[this.at] === "." && ++this.at);
    return parts;
  }
  pair(): [string[], TomlValue] {
    const key = this.key();
    this.expect("=");
    return [key, this.value()];
  }
  private string(): string {
    const match = /^"(?:[^"\\\n]|\\["\\bfnrt]|\\u[0-9A-Fa-f]{4})*"/.exec(this.text.slice(this.at));
    if (!match) this.fail("a string that does not end, or with an unknown escape");
    this.at += match[0].length;
    return JSON.parse(match[0]);
  }
  private value(): TomlValue {
    this.blank();
    const rest = this.text.slice(this.at);
    if (rest.startsWith('"')) return this.string();
    const word = /^(true|false|[+-]?[0-9]+)(?![A-Za-z0-9_])/.exec(rest);
    if (word) {
      this.at += word[0].length;
      return word[0] === "true" ? true : word[0] === "false" ? false : Number(word[0]);
    }
    if (rest.startsWith("[")) {
      this.at++;
      const items: TomlValue[] = [];
      for (;;) {
        this.blank();
        if (this.text[this.at] === "]") break;
        items.push(this.value());
        this.blank();
        if (this.text[this.at] === ",") this.at++;
        else if (this.text[this.at] !== "]") this.fail("expected , or ]");
      }
      this.at++;
      return items;
    }
    if (rest.startsWith("{")) {
      this.at++;
      const table: Table = {};
      this.blank();
      if (this.text[this.at] === "}") {
        this.at++;
        return table;
      }
      for (;;) {
        const [key, value] = this.pair();
        assign(table, key, value, this.where);
        this.blank();
        if (this.text[this.at] === "}") break;
        this.expect(",");
      }
      this.at++;
      return table;
    }
    return this.fail("expected a value");
  }
}
