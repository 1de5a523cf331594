import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { type DiagnosticSettings, mergeSettings } from "../diagnostics/index.js";
import { ConfigError, ConfigLookup, type ConfigSettings, type FolderConfig } from "../files/index.js";
import type { FilterDefaults } from "../filter-tests/index.js";
import { LanguageService, type ServiceOptions } from "../service/index.js";
import { localPath } from "./document-path.js";
import type { Samples } from "./sample-lens.js";

/**
 * Language services kept, one per distinct set of settings: a workspace has one per filterc.json
 * that sets something, and each service holds the analyses of its latest texts.
 */
const MAX_SERVICES = 16;

/** A document's language service, and the problems of the filterc.json that should have set it. */
interface DocumentService {
  service: LanguageService;
  problems: readonly string[];
}

/**
 * The settings of each filter document: the nearest filterc.json's (of the folder of a document that is a local file)
 * over the client's (for `diagnostics`, code by code). A text's own `# dataset:` is read by the service and wins over both.
 */
export class DocumentSettings {
  private readonly lookup = new ConfigLookup();
  private readonly services = new Map<string, LanguageService>();

  constructor(private client: ServiceOptions) {}

  /** The client's settings changed: later documents are checked with these. */
  configure(client: ServiceOptions): void {
    this.client = { ...client };
    this.services.clear();
  }

  /** A filterc.json may have changed: it is read again when next asked for. */
  forgetFolders(): void {
    this.lookup.clear();
  }

  async serviceFor(uri: string): Promise<DocumentService> {
    const { defaults, problems } = await this.folderOf(uri);
    const options = over(this.client, defaults);
    const key = JSON.stringify([
      options.dataset,
      options.maxOperators,
      options.maxBytes,
      options.diagnostics,
    ]);
    let service = this.services.get(key);
    if (service) this.services.delete(key);
    else service = new LanguageService(options);
    // Most recently used last: the first is the one to let go.
    this.services.set(key, service);
    if (this.services.size > MAX_SERVICES) this.services.delete(this.services.keys().next().value!);
    return { service, problems };
  }

  /** The defaults of the filter file `file` (test lenses); rejects when its filterc.json cannot be used. */
  async defaultsFor(file: string): Promise<FilterDefaults> {
    const { defaults } = await this.lookup.forFile(file);
    const { dataset, maxOperators, maxBytes } = over(this.client, defaults);
    return {
      ...(dataset !== undefined && { dataset }),
      ...(maxOperators !== undefined && { maxOperators }),
      ...(maxBytes !== undefined && { maxBytes }),
    };
  }

  /** The sample logs the filterc.json nearest a local file's document names, if it names any and can be used. */
  async samplesFor(uri: string): Promise<Samples | undefined> {
    const file = localPath(uri);
    if (file === undefined) return undefined;
    try {
      const { path, samples } = await this.lookup.forFile(file);
      return path === undefined || samples === undefined
        ? undefined
        : { glob: samples, folder: dirname(path) };
    } catch {
      // A filterc.json that cannot be used (the document's diagnostics say why).
      return undefined;
    }
  }

  /**
   * The levels of warnings and notes in the file at `path` (a Terraform document): the client's,
   * under its folder's filterc.json's; the client's alone while that file cannot be used.
   */
  async diagnosticsFor(path: string): Promise<DiagnosticSettings | undefined> {
    const { defaults } = await this.folderOf(pathToFileURL(path).href);
    return over(this.client, defaults).diagnostics;
  }

  private async folderOf(uri: string): Promise<{ defaults: ConfigSettings; problems: readonly string[] }> {
    const file = localPath(uri);
    if (file === undefined) return { defaults: {}, problems: [] };
    let found: FolderConfig;
    try {
      found = await this.lookup.forFile(file);
    } catch (error) {
      // The client's settings apply meanwhile; the document says what is wrong with the file.
      if (error instanceof ConfigError) return { defaults: {}, problems: error.problems };
      throw error;
    }
    return { defaults: found.defaults, problems: [] };
  }
}

/** The client's settings with a filterc.json's over them. */
function over(client: ServiceOptions, defaults: ConfigSettings): ServiceOptions {
  const options: ServiceOptions = { ...client };
  if (defaults.dataset !== undefined) options.dataset = defaults.dataset;
  if (defaults.maxOperators !== undefined) options.maxOperators = defaults.maxOperators;
  if (defaults.maxBytes !== undefined) options.maxBytes = defaults.maxBytes;
  if (defaults.diagnostics !== undefined)
    options.diagnostics = mergeSettings(client.diagnostics, defaults.diagnostics);
  return options;
}
