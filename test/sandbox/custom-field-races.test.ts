import { describe, expect, it } from "vitest";
import { ApiError, createClient } from "../../src/api/index.js";
import { sandboxForEachTest, TOKEN, ZONE } from "./helpers.js";

/*
 * Writes of the custom fields from separate clients (separate processes, as two `filterc fields
 * add` or two consoles would be) at the same time: the Rulesets API's PUT is not conditional, so
 * each write reads the version its PUT answers and puts back what others wrote in between.
 */

const sandbox = sandboxForEachTest();
const client = () => createClient({ baseUrl: sandbox.running.api, apiToken: TOKEN, env: {} });
const stored = async () => (await client().getCustomFields({ zoneId: ZONE }))?.config ?? {};

describe("custom-field writes at the same time", () => {
  it("loses no name of 45 adds at once: every add that answers ok is stored, and the others say so", async () => {
    const names = Array.from({ length: 45 }, (_, i) => `x-h${i}`);
    const results = await Promise.allSettled(
      names.map((name) =>
        client().setCustomFields({ zoneId: ZONE }, { requestHeaders: [name] }, { merge: "add" }),
      ),
    );
    const added = names.filter((_, i) => results[i]!.status === "fulfilled");
    const failed = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
    // A write that gives up says so, as a conflict bounded by maxConflictRetries.
    for (const error of failed) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).failure).toBe("conflict");
    }
    const held = (await stored()).requestHeaders ?? [];
    expect([...held].sort()).toEqual([...added].sort());
    expect(added.length).toBeGreaterThan(40);
  });

  it("keeps an add and a remove made at once, and each prints only its own change", async () => {
    await client().setCustomFields({ zoneId: ZONE }, { requestHeaders: ["x-a", "x-b"], cookies: ["sid"] });
    const [add, remove] = await Promise.all([
      client().setCustomFields({ zoneId: ZONE }, { cookies: ["session"] }, { merge: "add" }),
      client().setCustomFields({ zoneId: ZONE }, { requestHeaders: ["x-a"] }, { merge: "remove" }),
    ]);
    expect(add.changes).toEqual([{ list: "cookies", name: "session", change: "added" }]);
    expect(remove.changes).toEqual([{ list: "requestHeaders", name: "x-a", change: "removed" }]);
    expect(await stored()).toEqual({ requestHeaders: ["x-b"], cookies: ["sid", "session"] });
  });
});
