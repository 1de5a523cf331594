/**
 * A file of filterc's own build that a command requires and that is not there (a copy of `dist/`
 * cut short, a package pruned by hand): every `.cjs` file the CLI requires is its own (the
 * dependencies are bundled; DuckDB has its own hint), and so is a catalog (`catalogs/NAME.json`).
 * Said as what to do, not as a stack trace.
 */
export function brokenInstallText(error: unknown): string | undefined {
  if ((error as NodeJS.ErrnoException)?.code !== "MODULE_NOT_FOUND") return undefined;
  const missing = /^Cannot find module '([^']*\.(?:cjs|json))'/.exec((error as Error).message)?.[1];
  if (missing === undefined) return undefined;
  const parts = missing.split(/[/\\]/);
  const shown = parts.at(-2) === "catalogs" ? parts.slice(-2).join("/") : parts.at(-1);
  return `filterc: the install is incomplete: ${shown} is missing from filterc's files; install filterc again\n`;
}
