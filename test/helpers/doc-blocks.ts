/**
 * The code blocks of the documentation, read as the doc-example harness (test/helpers/doc-pages.ts)
 * runs them. The convention is described there and in docs/testing.md.
 */
import { parse as parseYaml } from "yaml";

export interface DocBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The words of the info string after the fence (`console`, `ts browser`, `lpf file=errors.lpf`). */
  info: string[];
  /** The block's text, each line ending with "\n". */
  text: string;
}

/** The fenced blocks of a Markdown page, in order (fences of ``` or ~~~, indented up to 3 spaces). */
export function fencedBlocks(markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    const fence = open?.[1];
    // As in CommonMark, the info string of a backtick fence holds no backtick (```` ```x ```` is inline code).
    if (!open || !fence || (fence.startsWith("`") && open[2]!.includes("`"))) continue;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(lines[j]!)) {
      body.push(lines[j]!);
      j++;
    }
    if (j === lines.length) throw new Error(`line ${i + 1}: code block without a closing fence`);
    blocks.push({
      line: i + 1,
      info: open[2]!.trim().split(/\s+/).filter(Boolean),
      text: body.map((l) => `${l}\n`).join(""),
    });
    i = j;
  }
  return blocks;
}

/** The file a block writes (`file=NAME` in its info string), if any. */
export function blockFile(block: DocBlock): string | undefined {
  return block.info.find((word) => word.startsWith("file="))?.slice("file=".length);
}

export interface ConsoleCommand {
  /** 1-based page line of the `$ ` line. */
  line: number;
  command: string;
  /** The documented output (stdout then stderr), each line ending with "\n". */
  output: string;
  exit: number;
}

/**
 * The commands of a `console` block: each starts with `$ ` (a line ending in `\` continues on the next
 * line), followed by its output and, when the status is not 0, a last line `[exit N]`.
 */
export function consoleCommands(block: DocBlock): ConsoleCommand[] {
  const lines = block.text.split("\n").slice(0, -1);
  const commands: ConsoleCommand[] = [];
  let current: ConsoleCommand | undefined;
  let exitSeen = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const pageLine = block.line + 1 + i;
    if (line.startsWith("$ ")) {
      let command = line.slice(2);
      while (command.endsWith("\\") && i + 1 < lines.length) command = `${command}\n${lines[++i]}`;
      current = { line: pageLine, command, output: "", exit: 0 };
      commands.push(current);
      exitSeen = false;
      continue;
    }
    if (!current) throw new Error(`line ${pageLine}: output before the first "$ " command`);
    if (exitSeen) throw new Error(`line ${pageLine}: output after "[exit N]"`);
    const exit = /^\[exit (\d+)\]$/.exec(line);
    if (exit) {
      current.exit = Number(exit[1]);
      if (current.exit === 0) throw new Error(`line ${pageLine}: "[exit 0]" is written by leaving it out`);
      exitSeen = true;
      continue;
    }
    current.output += `${line}\n`;
  }
  if (commands.length === 0) throw new Error(`line ${block.line}: a console block without a "$ " command`);
  return commands;
}

/**
 * Whether `actual` is the documented output. `…` in the documented text stands for any run of
 * characters within one line (for what changes from run to run: generated ids, timestamps); anything
 * else must match exactly.
 */
export function outputMatches(documented: string, actual: string): boolean {
  if (!documented.includes("…")) return documented === actual;
  const pattern = documented
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^\\n]*?");
  return new RegExp(`^${pattern}$`).test(actual);
}

export interface ValueCheck {
  /** 1-based page line of the `// →` comment. */
  line: number;
  /** Index (in the block's lines) of the statement whose value is shown. */
  statement: number;
  /** Indexes of the comment lines holding the value. */
  comment: { first: number; last: number };
  expected: string;
}

/**
 * The shown values of a ts block: `statement; // → value` on one line, or `// → value` on the line
 * after a one-line statement; the value (a JavaScript expression) continues on the comment lines that
 * follow when they are indented past the `//` (`//   more`).
 */
export function valueChecks(block: DocBlock): ValueCheck[] {
  const lines = block.text.split("\n").slice(0, -1);
  const checks: ValueCheck[] = [];
  for (let i = 0; i < lines.length; i++) {
    const arrow = lines[i]!.indexOf("// →");
    if (arrow < 0) continue;
    const ownLine = lines[i]!.slice(0, arrow).trim() === "";
    let statement = i;
    if (ownLine) {
      statement = i - 1;
      while (statement >= 0 && lines[statement]!.trim().startsWith("//")) statement--;
      if (statement < 0) throw new Error(`line ${block.line + 1 + i}: "// →" without a statement before it`);
    }
    const first = i;
    let expected = lines[i]!.slice(arrow + "// →".length).trim();
    while (i + 1 < lines.length && /^\s*\/\/ {2,}\S/.test(lines[i + 1]!)) {
      expected += `\n${lines[++i]!.trim().slice(2)}`;
    }
    checks.push({ line: block.line + 1 + first, statement, comment: { first, last: i }, expected });
  }
  return checks;
}

/**
 * The block's code with each shown value turned into a check: the statement becomes
 * `__doc.check(line, (statement), (value))` and the `// →` comments go.
 */
export function instrument(block: DocBlock): string {
  const lines = block.text.split("\n").slice(0, -1);
  const checks = valueChecks(block);
  const out = lines.map((line) => (line.includes("// →") ? line.slice(0, line.indexOf("// →")) : line));
  const dropped = new Set<number>();
  for (const check of checks) {
    for (let k = check.comment.first + 1; k <= check.comment.last; k++) dropped.add(k);
    // A statement may carry a remark after its semicolon: `result.filter; // the string …`.
    const code = out[check.statement]!.trim()
      .replace(/;\s*\/\/.*$/, ";")
      .replace(/;$/, "");
    const indent = /^\s*/.exec(out[check.statement]!)![0];
    out[check.statement] = `${indent}__doc.check(${check.line}, (${code}), (${check.expected}));`;
  }
  return out.filter((_, k) => !dropped.has(k)).join("\n");
}

/** A command of a CI workflow block: the job, and the shell line it runs. */
export interface WorkflowCommand {
  job: string;
  command: string;
}

/**
 * The shell commands of a CI workflow (`workflow` in a `yaml file=NAME` block's info string): a
 * GitHub Actions workflow's `run:` steps (each line of a multi-line one), or a GitLab CI file's
 * `before_script:` and `script:` items, in order. Each reads as YAML; another shape is an error.
 */
export function workflowCommands(text: string): WorkflowCommand[] {
  const document = parseYaml(text) as Record<string, unknown>;
  const lines = (job: string, script: unknown) =>
    String(script)
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .map((command) => ({ job, command }));
  if (document["jobs"] && typeof document["jobs"] === "object")
    return Object.entries(document["jobs"] as Record<string, { steps?: { run?: string }[] }>).flatMap(
      ([job, { steps }]) =>
        (steps ?? []).flatMap((step) => (step.run === undefined ? [] : lines(job, step.run))),
    );
  const commands = Object.entries(document).flatMap(([job, value]) => {
    if (!value || typeof value !== "object" || Array.isArray(value)) return [];
    const { before_script: before, script } = value as { before_script?: unknown[]; script?: unknown[] };
    return [...(before ?? []), ...(script ?? [])].flatMap((item) => lines(job, item));
  });
  if (commands.length === 0) throw new Error("a workflow block with neither jobs.*.steps[].run nor *.script");
  return commands;
}
