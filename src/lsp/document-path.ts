import { fileURLToPath } from "node:url";

/**
 * The local file a document's URI names, or undefined when it names none: another scheme
 * (`untitled:`, `vscode-notebook-cell:`, `http:`), a file on another host (`file://server/share/x.lpf`),
 * or a path no file here can have (an encoded `/`, broken percent-encoding, a NUL). Any URI is a
 * document; one that names no local file has no folder, so no filterc.json, test files or module.
 */
export function localPath(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== "file:") return undefined;
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch {
    return undefined;
  }
  return path.includes("\0") ? undefined : path;
}
