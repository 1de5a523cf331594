import { pageConfig } from "../playground/vite.config.js";

/** The console's page: served by `filterc console` beside its JSON API. */
export default pageConfig("console");
