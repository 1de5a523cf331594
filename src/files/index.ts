export { fileChunks, regularFileChunks } from "./chunks.js";
export { makeFolders } from "./folders.js";
export { type Accept, openFile } from "./open.js";
export { fileProblem, readTextUpTo, readUpTo } from "./read.js";
