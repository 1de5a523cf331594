export { type FilterForm, formOf, type LoadedFilter, type LoadOptions, loadFilter } from "./load.js";
