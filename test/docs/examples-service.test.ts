/** The documentation's examples (test/helpers/doc-pages.ts runs them, and says how): the pages of the CLI, the API client, the sandbox and the console. */
import { describePages } from "../helpers/doc-pages.js";

describePages("service");
