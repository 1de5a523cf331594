import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTerraform } from "../../src/terraform/index.js";
import { temporaryFolder } from "../helpers/folders.js";

/* Filters where the reader once did not look: a `filter {}` block, and jsonencode filters outside jobs. */

const folder = temporaryFolder("filterc-terraform-loose-");
let count = 0;

async function check(text: string) {
  const dir = join(folder(), `case-${count++}`);
  await mkdir(dir);
  await writeFile(join(dir, "a.tf"), text);
  const checked = await checkTerraform(["."], dir);
  return {
    checked,
    found: checked.flatMap(({ file, diagnostics }) =>
      diagnostics.map((d) => `${file.name} ${d.code} ${d.range.start.line}:${d.range.start.column}`),
    ),
  };
}

const blockJob = `resource "cloudflare_logpush_job" "a" {
  zone_id = "z"
  filter {
    where {
      and = [
        { key = "ClientIP", operator = "eq", value = "1.1.1.1" },
        { key = "EdgeResponseStatus", operator = "geq", value = 500 },
      ]
    }
  }
}
`;

describe("filters the reader finds", () => {
  it("refuses a filter block, suggesting the jsonencode the provider takes, which checks clean", async () => {
    const { checked, found } = await check(blockJob);
    expect(found).toEqual(["a.tf E0907 3:3"]);
    const [diagnostic] = checked[0]!.diagnostics;
    expect(diagnostic!.message).toBe(
      "a job's filter is a string holding the filter JSON, not a block: the provider refuses filter { … }; write filter = jsonencode({ where = … })",
    );
    const { range, replacement } = diagnostic!.suggestion!;
    expect(replacement).toBe(`filter = jsonencode({
    where = {
      and = [
        { key = "ClientIP", operator = "eq", value = "1.1.1.1" },
        { key = "EdgeResponseStatus", operator = "geq", value = 500 },
      ]
    }
  })`);
    const fixed = blockJob.slice(0, range.start.offset) + replacement + blockJob.slice(range.end.offset);
    expect((await check(fixed)).found).toEqual([]);
    // With a mistake inside, the fixed text is checked as any jsonencode filter is.
    const wrong = fixed.replace('operator = "geq"', 'operator = "gte"');
    expect((await check(wrong)).found).toEqual(["a.tf E0511 7:50"]);
  });

  it("suggests no rewrite of a block that an object cannot hold as written (a block type twice)", async () => {
    const twice = blockJob.replace("    where {", "    where {\n    }\n    where {");
    const { checked, found } = await check(twice);
    expect(found).toEqual(["a.tf E0907 3:3"]);
    expect(checked[0]!.diagnostics[0]!.suggestion).toBeUndefined();
  });

  it("checks every jsonencode({ where = … }): in maps, module arguments, defaults; each once", async () => {
    const text = `locals {
  jobs = {
    dns  = { dataset = "dns_logs", filter = jsonencode({ where = { key = "QueryName", operator = "neq", value = "x" } }) }
    http = { filter = jsonencode({ where = { key = "ClientIP", operator = "eq", value = "1.1.1.1" } }) }
  }
  used = jsonencode({ where = { key = "QueryName", operator = "neq", value = "y" } })
  open = jsonencode({ where = { key = "ClientIP", operator = "eq", value = aws_eip.a.public_ip } })
}

module "logs" {
  source  = "./logs"
  dataset = "firewall_events"
  filter  = jsonencode({ where = { key = "ClientCountry", operator = "eq", value = "us" } })
  other   = jsonencode({ where = { key = "ClientCountr", operator = "eq", value = "us" } })
}

variable "filter" {
  default = jsonencode({ where = { key = "QueryName", operator = "eq", value = "x" } })
}

resource "cloudflare_logpush_job" "dns" {
  zone_id = "z"
  dataset = "dns_logs"
  filter  = local.used
}

resource "cloudflare_logpush_job" "open" {
  zone_id = "z"
  filter  = local.open
}
`;
    expect((await check(text)).found).toEqual([
      "a.tf E0511 3:98",
      "a.tf W0903 4:23",
      "a.tf E0511 6:63",
      "a.tf W0900 7:76",
      "a.tf E0201 14:42",
      "a.tf W0903 18:13",
      "a.tf E0201 18:42",
    ]);
  });
});
