/**
 * `--deny CODE` and `--allow CODE`: the levels a run gives warnings and notes, over a filterc.json's
 * `diagnostics` (docs/diagnostics.md). check, compile, fmt --check and the Terraform check take them.
 */
import { type DiagnosticSettings, EVERY_WARNING, settingCodeProblem } from "../diagnostics/index.js";
import { UsageError } from "./io.js";

export const tuningFlags = {
  deny: { type: "string", multiple: true },
  allow: { type: "string", multiple: true },
} as const;

/** The flags' lines of a usage text, aligned at column 24 as the commands' other flags are. */
export const TUNING_USAGE = `  --deny CODE           report the warning or note CODE as an error (repeatable, or CODE,CODE;
                        --deny ${EVERY_WARNING}: every warning whose code is not set otherwise)
  --allow CODE          report no CODE (repeatable, or CODE,CODE)`;

export interface TuningFlagValues {
  deny?: string[] | undefined;
  allow?: string[] | undefined;
}

/**
 * The levels the flags give: `error` for each denied code, `off` for each allowed one. A code that
 * is no warning's or note's is a usage error naming the codes that are (E0015, E0017's words), and
 * so is one code both denied and allowed: which should win is the user's to say.
 */
export function tuningFromFlags(values: TuningFlagValues): DiagnosticSettings | undefined {
  if (values.deny === undefined && values.allow === undefined) return undefined;
  const settings: Record<string, "error" | "off"> = {};
  const given = (list: string[] | undefined, flag: string, level: "error" | "off") => {
    for (const code of (list ?? []).flatMap((value) => value.split(",")).map((code) => code.trim())) {
      const problem = settingCodeProblem(code, flag);
      if (problem) throw new UsageError(problem.message);
      if (settings[code] !== undefined && settings[code] !== level)
        throw new UsageError(`${code} is given to both --deny and --allow; give it to one`);
      settings[code] = level;
    }
  };
  given(values.deny, "--deny", "error");
  given(values.allow, "--allow", "off");
  return settings;
}
