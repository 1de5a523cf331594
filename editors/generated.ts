import { datasetNames } from "../src/catalog/index.js";
import { datasetSetting, datasetSnippet, propertyList, textMateGrammar, vimSyntax } from "./syntax.js";

/** The extension's manifest, where the dataset setting lists the datasets. */
export const MANIFEST = "editors/vscode/package.json";
/** The extension's snippets, where the `# dataset:` one offers the datasets. */
export const SNIPPETS = "editors/vscode/snippets/lpf.json";
/** The JSON Schema of `filterc.json`, whose `dataset` lists the datasets. */
export const SCHEMA = "schemas/filterc.schema.json";

/**
 * Every file made from the vocabulary and the catalogs, by its path from the repository root.
 * `read` gives a committed file's text: the manifest, the snippets and the schema of `filterc.json`
 * are the committed ones with their lists of datasets brought up to date from the catalogs.
 */
export function generatedFiles(read: (path: string) => string): Record<string, string> {
  const grammar = textMateGrammar();
  const manifest = JSON.parse(read(MANIFEST));
  Object.assign(manifest.contributes.configuration.properties["filterc.dataset"], datasetSetting);
  const snippets = JSON.parse(read(SNIPPETS));
  snippets.Dataset = datasetSnippet;
  const schema = JSON.parse(read(SCHEMA));
  schema.properties.dataset.enum = [...datasetNames];
  return {
    "editors/vscode/syntaxes/lpf.tmLanguage.json": `${JSON.stringify(grammar, null, 2)}\n`,
    "editors/sublime/LPF.tmLanguage": propertyList(grammar),
    "editors/vim/syntax/lpf.vim": vimSyntax(),
    [MANIFEST]: `${JSON.stringify(manifest, null, 2)}\n`,
    [SNIPPETS]: `${JSON.stringify(snippets, null, 2)}\n`,
    [SCHEMA]: `${JSON.stringify(schema, null, 2)}\n`,
  };
}
