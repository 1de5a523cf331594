export {
  type AtomicFile,
  type AtomicWriteOptions,
  createAtomicFile,
  type ExpectedFile,
  syncFolder,
  writeFileAtomically,
} from "./atomic-file.js";
export { editBytes, type TextEdit } from "./byte-edits.js";
export { fileChunks, regularFileChunks } from "./chunks.js";
export {
  CONFIG_FILE_NAME,
  ConfigError,
  ConfigLookup,
  type ConfigSettings,
  type FolderConfig,
  MAX_CONFIG_FILE_BYTES,
  MAX_CONFIG_FOLDERS,
  readConfig,
} from "./config.js";
export { chunksInside, confinedPath, confinementRoot, pathInside } from "./confined.js";
export { type FileSnapshot, FileTooLarge, readSnapshot } from "./file-snapshot.js";
export { makeFolders } from "./folders.js";
export { expandGlob, GLOB_LIMITS, GlobError, type GlobLimits, isGlob } from "./glob.js";
export { moduleFile } from "./module-file.js";
export { notWrittenDiagnostic } from "./not-written.js";
export { type Accept, openFile } from "./open.js";
export { fileProblem, readTextUpTo, readUpTo } from "./read.js";
export { changedSinceRead, isWriteRefused, WriteRefused } from "./write-refused.js";
