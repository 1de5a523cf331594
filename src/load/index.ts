export { type FilterForm, type LoadedFilter, type LoadOptions, loadFilter } from "./load.js";
