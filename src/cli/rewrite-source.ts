import { type Diagnostic, LineIndex } from "../diagnostics/index.js";
import {
  type FileSnapshot,
  FileTooLarge,
  notWrittenDiagnostic,
  readSnapshot,
  writeFileAtomically,
} from "../files/index.js";
import { withoutByteOrderMark } from "../syntax/byte-order-mark.js";
import {
  cannotRead,
  cannotReadText,
  decodeText,
  MAX_SOURCE_FILE_BYTES,
  sourceTooLarge,
  UserError,
} from "./io.js";

/** A filter file read to be written back (`check --fix`, `fmt --write`): its text and what it was. */
export interface SourceToRewrite {
  text: string;
  name: string;
  byteOrderMark: boolean;
  snapshot: FileSnapshot;
}

/**
 * Reads a filter file as `readSource` reads one (UTF-8 only, a byte order mark dropped and
 * remembered), a regular file only: a fifo read to its end would wait for a writer.
 */
export async function readSourceToRewrite(file: string): Promise<SourceToRewrite> {
  let snapshot: FileSnapshot | undefined;
  try {
    snapshot = await readSnapshot(file, MAX_SOURCE_FILE_BYTES);
  } catch (error) {
    throw error instanceof FileTooLarge ? sourceTooLarge(file) : cannotRead(file, error);
  }
  if (snapshot?.bytes === undefined) throw new UserError(cannotReadText(file, "no such file"));
  const read = decodeText(snapshot.bytes, file);
  const text = withoutByteOrderMark(read);
  return { text, name: file, byteOrderMark: text.length < read.length, snapshot };
}

/**
 * Writes `text` over the file read (its byte order mark kept) through writeFileAtomically, only
 * while the file still holds what was read; undefined once written, or the diagnostic that says
 * why the file was left as it was. The file was UTF-8 throughout, so the bytes outside what
 * changed are the bytes read.
 */
export async function rewriteSource(source: SourceToRewrite, text: string): Promise<Diagnostic | undefined> {
  const bytes = Buffer.from(source.byteOrderMark ? `\uFEFF${text}` : text, "utf8");
  try {
    await writeFileAtomically(source.name, bytes, { expected: source.snapshot });
    return undefined;
  } catch (error) {
    return notWrittenDiagnostic(error, new LineIndex(source.text).rangeOf(0, 0));
  }
}
