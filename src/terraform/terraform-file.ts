/** A Terraform file, by its extension: its own module, so that `check` can sort paths without the reader. */
export const isTerraformFile = (path: string) => /\.tf(vars)?$/.test(path);
