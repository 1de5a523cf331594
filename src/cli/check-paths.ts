/** How `check` tells its Terraform paths from its filter files, before it loads the Terraform reader. */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { isTerraformFile } from "../terraform/terraform-file.js";

/** The paths `check` reads as Terraform (`.tf`/`.tfvars` files and folders), apart from the filter files. */
export async function splitPaths(
  paths: readonly string[],
  cwd: string,
): Promise<{ terraform: string[]; filters: string[] }> {
  const terraform: string[] = [];
  const filters: string[] = [];
  for (const path of paths) {
    const folder =
      path !== "-" &&
      !isTerraformFile(path) &&
      (await stat(resolve(cwd, path)).catch(() => undefined))?.isDirectory() === true;
    (isTerraformFile(path) || folder ? terraform : filters).push(path);
  }
  return { terraform, filters };
}
