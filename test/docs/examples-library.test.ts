/** The documentation's examples (test/helpers/doc-pages.ts runs them, and says how): the pages of the library, eval, SQL and Terraform. */
import { describePages } from "../helpers/doc-pages.js";

describePages("library");
