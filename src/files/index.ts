export { makeFolders } from "./folders.js";
export { readTextUpTo, readUpTo } from "./read.js";
