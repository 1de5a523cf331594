export { makeFolders } from "./folders.js";
export { fileProblem, readTextUpTo, readUpTo } from "./read.js";
