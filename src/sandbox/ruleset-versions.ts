import type { Ruleset } from "./model.js";

/**
 * The versions of each ruleset written since the sandbox started, as `GET …/rulesets/{id}/versions/{v}`
 * answers them (the current version is always the ruleset itself). Kept in memory only, the last
 * `maxVersions` of each ruleset: an older one, or one written before a restart, is gone, as a
 * version deleted from the service is.
 */
export class RulesetVersions {
  private readonly kept = new Map<string, Map<number, Ruleset>>();

  constructor(private readonly maxVersions: number) {}

  /** Keeps `ruleset` (acknowledged, frozen) as the version it carries. */
  record(stateKey: string, ruleset: Ruleset): void {
    const key = `${stateKey}/${ruleset.id}`;
    const versions = this.kept.get(key) ?? new Map<number, Ruleset>();
    this.kept.set(key, versions);
    versions.set(Number(ruleset.version), ruleset);
    for (const version of versions.keys()) {
      if (versions.size <= this.maxVersions) break;
      versions.delete(version);
    }
  }

  get(stateKey: string, id: string, version: number): Ruleset | undefined {
    return this.kept.get(`${stateKey}/${id}`)?.get(version);
  }

  forget(stateKey: string, id: string): void {
    this.kept.delete(`${stateKey}/${id}`);
  }
}
