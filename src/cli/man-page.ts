/**
 * The manual page `man filterc` shows, in roff, made from the command references: each command's
 * summary, then its whole `--help` as it prints, so the page says what the commands say. The build
 * writes it to dist/filterc.1, which the package installs (package.json's "man").
 */
import type { CommandReference } from "./command-reference.js";
import { TAGLINE } from "./overview.js";

/**
 * Text as roff prints it: a backslash and every `-` escaped (groff would print `-` as a hyphen,
 * and a flag copied from the page would not be the flag), and a line that starts with `.` or `'`
 * kept as text.
 */
function roff(text: string): string {
  return text
    .replaceAll("\\", "\\e")
    .replaceAll("-", "\\-")
    .split("\n")
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join("\n");
}

export function manPage(commands: readonly CommandReference[], version: string): string {
  const sections = commands.flatMap((command) => [
    `.SS ${roff(`filterc ${command.name}`)}`,
    roff(command.summary),
    ".PP",
    ".RS 4",
    ".nf",
    roff(command.usage),
    ".fi",
    ".RE",
  ]);
  return `${[
    `.TH FILTERC 1 "" "filterc ${roff(version)}" "filterc manual"`,
    // Left-aligned and not hyphenated: a flag broken across lines could not be copied.
    ".nh",
    ".ad l",
    ".SH NAME",
    `filterc \\- ${roff(TAGLINE)}`,
    ".SH SYNOPSIS",
    ".B filterc",
    ".I command",
    "[\\fIoptions\\fR]",
    ".br",
    ".B filterc help",
    ".I command",
    ".br",
    `.B filterc \\-\\-version`,
    ".SH DESCRIPTION",
    roff(
      "filterc compiles a language of Logpush filters to the filter JSON a Logpush job takes, checked against the dataset's fields and the service's limits; decompiles, formats and explains filters; applies them to log lines; writes them as SQL; compares filters by meaning; and manages custom log fields and Logpush jobs through the Cloudflare API. Each command reads a file argument or standard input and takes --help; filterc help COMMAND prints the same.",
    ),
    ".SH COMMANDS",
    ...commands.flatMap((command) => [".TP", `.B ${roff(command.name)}`, roff(command.summary)]),
    '.SH "COMMAND REFERENCE"',
    roff("Each command's help, as filterc COMMAND --help prints it."),
    ...sections,
    '.SH "EXIT STATUS"',
    roff(
      "0 success, 1 errors (in the filter, the input or the service's answer), 2 usage; jobs diff exits 2 for changes, as terraform plan -detailed-exitcode does.",
    ),
    ".SH ENVIRONMENT",
    ".TP",
    ".B NO_COLOR",
    roff("set to a non-empty value: no colour, even on a terminal."),
    ".TP",
    ".B CLOUDFLARE_API_TOKEN",
    roff(
      "the API token of fields, jobs and console (the API options of filterc jobs --help give the others).",
    ),
    ".SH FILES",
    ".TP",
    ".B filterc.json",
    roff("in a filter file's folder or one above it: the dataset and limits of the filter files beneath it."),
    '.SH "SEE ALSO"',
    roff("The documentation ships in the package's docs folder: docs/cli.md for the commands."),
  ].join("\n")}\n`;
}
