import { closeBrackets } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { lintGutter } from "@codemirror/lint";
import { Compartment, EditorState } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import {
  filterResult,
  formatFilter,
  type LogpushFilterExtensionOptions,
  logpushFilter,
} from "../src/codemirror/index.js";
import { DEFAULT_DATASET, datasetNames } from "../src/index.js";
import { setUpDecompilePane } from "./decompile.js";
import { element } from "./dom.js";
import { renderEvaluation } from "./evaluate.js";
import { renderResult } from "./output.js";

const initialSource = `# 5xx on the API host, excluding health checks
EdgeResponseStatus geq 500
  and ClientRequestHost eq "api.example.com"
  and not (ClientRequestPath startsWith "/health" or ClientRequestMethod in ["HEAD", "OPTIONS"])
`;

const initialLines = [
  {
    EdgeResponseStatus: 502,
    ClientRequestHost: "api.example.com",
    ClientRequestPath: "/v1/users",
    ClientRequestMethod: "GET",
  },
  {
    EdgeResponseStatus: 503,
    ClientRequestHost: "api.example.com",
    ClientRequestPath: "/health",
    ClientRequestMethod: "GET",
  },
  {
    EdgeResponseStatus: 200,
    ClientRequestHost: "api.example.com",
    ClientRequestPath: "/v1/users",
    ClientRequestMethod: "POST",
  },
]
  .map((line) => JSON.stringify(line))
  .join("\n");

const datasetPicker = element<HTMLSelectElement>("dataset");
const maxOperatorsInput = element<HTMLInputElement>("max-operators");
const maxBytesInput = element<HTMLInputElement>("max-bytes");
const evaluateInput = element<HTMLTextAreaElement>("evaluate-input");

for (const name of datasetNames) datasetPicker.add(new Option(name, name, false, name === DEFAULT_DATASET));
evaluateInput.value = initialLines;

/** A positive whole number from an input, or undefined (the default limit) when it is not one. */
function limitFrom(input: HTMLInputElement): number | undefined {
  const value = Number(input.value);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

function currentOptions(): LogpushFilterExtensionOptions {
  return {
    dataset: datasetPicker.value,
    maxOperators: limitFrom(maxOperatorsInput),
    maxBytes: limitFrom(maxBytesInput),
  };
}

const filterSettings = new Compartment();

function refresh(view: EditorView): void {
  renderResult(view, filterResult(view.state));
  renderEvaluation(view.state.doc.toString(), currentOptions());
}

const view = new EditorView({
  parent: element("editor"),
  state: EditorState.create({
    doc: initialSource,
    extensions: [
      lineNumbers(),
      history(),
      drawSelection(),
      highlightActiveLine(),
      closeBrackets(),
      lintGutter(),
      EditorView.lineWrapping,
      keymap.of([...defaultKeymap, ...historyKeymap]),
      filterSettings.of(logpushFilter(currentOptions())),
      EditorView.updateListener.of((update) => {
        if (filterResult(update.state) !== filterResult(update.startState)) refresh(update.view);
      }),
    ],
  }),
});

const renderDecompiled = setUpDecompilePane(view, () => datasetPicker.value);

function reconfigure(): void {
  view.dispatch({ effects: filterSettings.reconfigure(logpushFilter(currentOptions())) });
  renderDecompiled();
}

for (const control of [datasetPicker, maxOperatorsInput, maxBytesInput])
  control.addEventListener("change", reconfigure);
element("format").addEventListener("click", () => {
  formatFilter(view);
  view.focus();
});
evaluateInput.addEventListener("input", () => renderEvaluation(view.state.doc.toString(), currentOptions()));

document.querySelectorAll<HTMLButtonElement>("[data-copy]").forEach((button) => {
  button.addEventListener("click", () => {
    const text = element(button.dataset["copy"]!).textContent ?? "";
    navigator.clipboard?.writeText(text).then(
      () => {
        button.textContent = "Copied";
        setTimeout(() => {
          button.textContent = "Copy";
        }, 1200);
      },
      () => undefined,
    );
  });
});

refresh(view);
view.focus();
