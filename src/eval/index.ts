export { compilePredicate, type Predicate } from "./predicate.js";
