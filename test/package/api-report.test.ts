import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig, type ExtractorMessage } from "@microsoft/api-extractor";
import { describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** API Extractor reads every declaration with the TypeScript compiler: about 25 s alone, minutes on a loaded machine. */
const EXTRACT_TIMEOUT_MS = 600_000;
const UPDATE = "npm run api-report";

describe("the public API report, etc/filterc.api.md", () => {
  it(
    "is the surface the built library declares, each export documented",
    () => {
      ensureBundles();
      const config = ExtractorConfig.loadFileAndPrepare(join(root, "api-extractor.json"));
      const errors: string[] = [];
      const result = Extractor.invoke(config, {
        localBuild: false,
        messageCallback: (message: ExtractorMessage) => {
          message.handled = true;
          // A changed report is the assertion below, with the command that updates it.
          const reportChanged = message.messageId === "console-api-report-not-copied";
          if (message.logLevel === "error" && !reportChanged)
            errors.push(`${message.messageId}: ${message.text}`);
        },
      });
      expect(
        result.apiReportChanged,
        `the public API changed: if that is meant, run \`${UPDATE}\` and commit etc/filterc.api.md`,
      ).toBe(false);
      expect(errors).toEqual([]);

      // A top-level declaration is the line after its release tag; members are indented.
      const lines = readFileSync(join(root, "etc/filterc.api.md"), "utf8").split("\n");
      const undocumented = lines.flatMap((line, i) =>
        line === "// @public (undocumented)" ? [(lines[i + 1] ?? "").replace(/[({<:=].*$/, "").trim()] : [],
      );
      expect(undocumented, "exports without a /** … */ comment").toEqual([]);
    },
    EXTRACT_TIMEOUT_MS,
  );
});
