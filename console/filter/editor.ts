import { closeBrackets } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { lintGutter } from "@codemirror/lint";
import { Annotation, Compartment, EditorState } from "@codemirror/state";
import { drawSelection, EditorView, keymap, lineNumbers } from "@codemirror/view";
import { getCatalog } from "../../src/catalog/index.js";
import { filterResult, logpushFilter } from "../../src/codemirror/index.js";
import type { CompileResult } from "../../src/compile.js";
import type { DiagnosticSettings } from "../../src/diagnostics/index.js";
import { conditionToExpr, print } from "../../src/print/index.js";
import { createBuilder } from "./builder.js";
import { builderText, comparisonsOf, readBuilder } from "./model.js";

/** Marks the text changes the builder made, which the builder must not read back. */
const fromBuilder = Annotation.define<true>();

/** A Filter section: the builder and the text side by side, and what the filter compiles to. */
export interface FilterEditor {
  readonly view: EditorView;
  setDataset(dataset: string): void;
  /** The levels of warnings and notes the console was started with (its filterc.json, its flags). */
  setDiagnostics(diagnostics: DiagnosticSettings): void;
  /** Replaces the text (a job's filter to edit); the builder follows. */
  setText(text: string): void;
  text(): string;
  result(): CompileResult;
  /** The numbers of the builder's rows that are not yet in the filter (no field or no value). */
  unfinished(): number[];
}

/** Where a Filter section is drawn, and what follows each compile of its text. */
export interface FilterSectionPlaces {
  /** Where the Field, Operator, Value rows go. */
  builder: HTMLElement;
  /** Where the text editor goes. */
  editor: HTMLElement;
  /** Called with each new compile of the text (the page's JSON, gauges, diagnostics). */
  compiled?: (view: EditorView, result: CompileResult) => void;
}

/**
 * Each side follows the other: a change of the text is read into the builder (or the builder says
 * why it cannot show it), a change in the builder is printed into the text. Each row's problems,
 * and whatever the page shows of the compile (`compiled`), follow the text's one compile.
 */
export function createFilterEditor(places: FilterSectionPlaces, initialDataset: string): FilterEditor {
  let dataset = initialDataset;
  let diagnostics: DiagnosticSettings = {};
  const settings = new Compartment();
  const options = () => logpushFilter({ dataset, diagnostics });
  const compiled = places.compiled ?? (() => undefined);

  const builder = createBuilder(places.builder, (group) => {
    const text = builderText(group, getCatalog(dataset)!);
    if (text === view.state.doc.toString()) {
      markRows(filterResult(view.state));
      return;
    }
    view.dispatch({
      changes: { from: 0, to: view.state.doc.length, insert: text },
      annotations: fromBuilder.of(true),
    });
  });

  function readIntoBuilder(result: CompileResult): void {
    const catalog = result.catalog ?? getCatalog(dataset)!;
    const reading = readBuilder(result.ast, result.diagnostics, catalog);
    if (reading.ok) {
      builder.show(reading.group, catalog, dataset);
      return;
    }
    const meaning = result.meaning;
    const pushDown =
      reading.pushDown && meaning ? () => editor.setText(print(conditionToExpr(meaning))) : undefined;
    builder.showUnshowable(reading.reason, pushDown);
  }

  /** Each row's problems: the diagnostics inside its comparison, the rows and comparisons in the same order. */
  function markRows(result: CompileResult): void {
    builder.markRows(
      comparisonsOf(result.ast.expr).map(({ range }) =>
        result.diagnostics
          .filter(
            (d) => d.range.start.offset >= range.start.offset && d.range.start.offset < range.end.offset,
          )
          .map((d) => d.message),
      ),
    );
  }

  const view = new EditorView({
    parent: places.editor,
    state: EditorState.create({
      doc: "",
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        closeBrackets(),
        lintGutter(),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ "aria-label": "Filter text" }),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        settings.of(options()),
        EditorView.updateListener.of((update) => {
          const result = filterResult(update.state);
          if (result === filterResult(update.startState)) return;
          compiled(update.view, result);
          if (!update.transactions.some((transaction) => transaction.annotation(fromBuilder)))
            readIntoBuilder(result);
          markRows(result);
        }),
      ],
    }),
  });

  const editor: FilterEditor = {
    view,
    setDataset(name) {
      dataset = name;
      view.dispatch({ effects: settings.reconfigure(options()) });
    },
    setDiagnostics(levels) {
      diagnostics = levels;
      view.dispatch({ effects: settings.reconfigure(options()) });
    },
    setText(text) {
      // The same text still gives the builder anew: its unfinished rows go too.
      if (text === view.state.doc.toString()) readIntoBuilder(filterResult(view.state));
      else view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    text: () => view.state.doc.toString(),
    result: () => filterResult(view.state),
    unfinished: () => builder.unfinished(),
  };
  const first = filterResult(view.state);
  compiled(view, first);
  readIntoBuilder(first);
  return editor;
}
