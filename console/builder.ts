import type { Catalog } from "../src/catalog/index.js";
import { knownValues } from "../src/service/index.js";
import { isListOperator, OPERATORS, operatorsFor } from "../src/syntax/index.js";
import {
  builderFields,
  emptyGroup,
  type Group,
  type Join,
  newRow,
  type Row,
  rowsOf,
  valueType,
  withField,
  withOperator,
} from "./builder-model.js";

/** The Filter section's builder on the page: rows of Field, Operator and Value, AND / OR, groups. */
interface Builder {
  /** Shows a group to edit (the filter the text holds). */
  show(group: Group, catalog: Catalog, dataset: string): void;
  /** Shows that the builder cannot hold the text's filter, and why; `pushDown` offers the rewrite. */
  showUnshowable(reason: string, pushDown: (() => void) | undefined): void;
  /** Marks each row (by its place, depth first) with the problems the text has there. */
  markRows(problems: ReadonlyArray<readonly string[]>): void;
}

let nextId = 0;
const uniqueId = (prefix: string) => `${prefix}-${++nextId}`;

function make<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A control with its label above it. The label names it by `for`, not by holding it: a label holding
 * a control would add the control's value to its name ("Field ClientIP").
 */
function labelled(text: string, control: HTMLElement, className: string): HTMLElement {
  const input = control.matches("input, select, textarea")
    ? control
    : control.querySelector("input, select, textarea")!;
  input.id ||= uniqueId("control");
  const box = make("div", { class: `labelled ${className}` });
  box.append(make("label", { for: input.id }, text), control);
  return box;
}

/**
 * The builder in `host`. Each edit changes the group and calls `changed` with it; the rows are drawn
 * again only when what they offer changes (a field, an operator, a row added), and the control that
 * had the focus gets it back.
 */
export function createBuilder(host: HTMLElement, changed: (group: Group) => void): Builder {
  let group = emptyGroup();
  let catalog: Catalog | undefined;
  let dataset = "";

  /** Says the group changed; after a redraw, so that the rows marked with the text's problems are the ones shown. */
  const emit = () => changed(group);

  function draw(): void {
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.["key"];
    const rows = { count: 0 };
    const groups = { count: 0 };
    const tree = drawGroup(group, "", undefined, rows, groups);
    host.replaceChildren(tree);
    if (focused) host.querySelector<HTMLElement>(`[data-key="${focused}"]`)?.focus();
  }

  function drawGroup(
    shown: Group,
    path: string,
    parent: { group: Group; index: number } | undefined,
    rows: { count: number },
    groups: { count: number },
  ): HTMLElement {
    const box = make("div", { class: parent ? "group nested" : "group" });
    const name = parent ? `Group ${++groups.count}` : "Filter";
    if (parent) {
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", name);
    }
    if (shown.items.length === 0 && !parent)
      box.append(make("p", { class: "empty-filter" }, "No filter: every log line is pushed."));
    shown.items.forEach((item, index) => {
      const at = `${path}${index}`;
      const line = make("div", { class: "item" });
      if (index > 0) line.append(joinControl(shown, index - 1, `${at}:join`));
      line.append(
        item.kind === "row"
          ? drawRow(shown, index, at, ++rows.count)
          : drawGroup(item, `${at}.`, { group: shown, index }, rows, groups),
      );
      box.append(line);
    });
    const actions = make("div", { class: "group-actions" });
    for (const join of ["and", "or"] as const) {
      actions.append(
        button(
          join.toUpperCase(),
          `${path}:add-${join}`,
          () => addItem(shown, join, "row"),
          `Add a comparison joined with ${join.toUpperCase()}`,
        ),
      );
    }
    for (const join of ["and", "or"] as const)
      actions.append(
        button(`${join.toUpperCase()} group`, `${path}:group-${join}`, () => addItem(shown, join, "group")),
      );
    if (parent)
      actions.append(
        button(`Remove ${name.toLowerCase()}`, `${path}:remove`, () =>
          removeItem(parent.group, parent.index),
        ),
      );
    box.append(actions);
    return box;
  }

  function button(text: string, key: string, onClick: () => void, title?: string): HTMLButtonElement {
    const element = make("button", { type: "button", "data-key": key }, text);
    if (title) element.title = title;
    element.addEventListener("click", onClick);
    return element;
  }

  function joinControl(shown: Group, index: number, key: string): HTMLElement {
    const select = make("select", { "data-key": key, class: "join-select" });
    for (const join of ["and", "or"] as const) select.add(new Option(join.toUpperCase(), join));
    select.value = shown.joins[index]!;
    select.addEventListener("change", () => {
      shown.joins[index] = select.value as Join;
      emit();
    });
    return labelled("Joined with", select, "join");
  }

  function addItem(shown: Group, join: Join, kind: "row" | "group"): void {
    const row = newRow(catalog!, rowsOf(shown).at(-1) ?? rowsOf(group).at(-1));
    if (shown.items.length > 0) shown.joins.push(join);
    shown.items.push(kind === "row" ? row : { kind: "group", items: [row], joins: [] });
    draw();
    emit();
    // The new row's Field control takes the focus, as a person would go on there.
    const number = rowsOf(group).indexOf(row) + 1;
    host.querySelector<HTMLElement>(`[data-control="field"][data-row="${number}"]`)?.focus();
  }

  function removeItem(shown: Group, index: number): void {
    shown.items.splice(index, 1);
    shown.joins.splice(Math.max(0, index - 1), 1);
    draw();
    emit();
  }

  /**
   * A row of Field, Operator and Value. The Field and Operator controls stay in place as they change
   * (a select drawn anew would lose what was typed to pick an option); the Operator's options and
   * the Value control follow the field's type and the operator.
   */
  function drawRow(shown: Group, index: number, at: string, number: number): HTMLElement {
    const current = () => shown.items[index] as Row;
    const box = make("div", { class: "row", role: "group", "aria-label": `Comparison ${number}` });
    const problemsId = uniqueId("row-problems");

    const fieldSelect = make("select", {
      "data-key": `${at}:field`,
      "data-control": "field",
      "data-row": String(number),
    });
    for (const info of builderFields(catalog!))
      fieldSelect.add(new Option(info.deprecated ? `${info.name} (deprecated)` : info.name, info.name));
    fieldSelect.value = current().field;

    const operatorSelect = make("select", { "data-key": `${at}:operator`, "data-control": "operator" });
    const fillOperators = () => {
      const { field, operator } = current();
      operatorSelect.replaceChildren(
        ...operatorsFor(catalog!.fields.get(field)!.type).map((op) => new Option(OPERATORS[op].label, op)),
      );
      operatorSelect.value = operator;
    };

    let value = labelled("Value", valueControl(current(), `${at}:value`, problemsId), "control value");
    const redrawValue = () => {
      const next = labelled("Value", valueControl(current(), `${at}:value`, problemsId), "control value");
      value.replaceWith(next);
      value = next;
    };

    fieldSelect.addEventListener("change", () => {
      if (fieldSelect.value !== current().field) {
        shown.items[index] = withField(current(), catalog!.fields.get(fieldSelect.value)!);
        fillOperators();
        redrawValue();
      }
      emit();
    });
    operatorSelect.addEventListener("change", () => {
      const operator = operatorSelect.value as Row["operator"];
      if (operator !== current().operator) {
        shown.items[index] = withOperator(current(), operator);
        redrawValue();
      }
      emit();
    });
    fillOperators();

    const remove = button("Remove", `${at}:remove`, () => removeItem(shown, index));
    remove.setAttribute("aria-label", `Remove comparison ${number}`);
    const problems = make("p", {
      class: "row-problems",
      id: problemsId,
      "data-row-problems": String(number),
    });
    box.append(
      labelled("Field", fieldSelect, "control field"),
      labelled("Operator", operatorSelect, "control operator"),
      value,
      remove,
      problems,
    );
    return box;
  }

  /** The Value control for the field's type: true/false, a number, a text with the known values, or a list. */
  function valueControl(row: Row, key: string, describedBy: string): HTMLElement {
    const field = catalog!.fields.get(row.field)!;
    const type = valueType(field);
    const common = { "data-key": key, "data-control": "value", "aria-describedby": describedBy };
    if (isListOperator(row.operator) || row.value.kind === "list") {
      const list = make("textarea", { ...common, rows: "3", spellcheck: "false" });
      list.value = row.value.kind === "list" ? row.value.items.join("\n") : row.value.text;
      const hint = make("span", { class: "hint", id: uniqueId("list-hint") }, "one value a line");
      list.setAttribute("aria-describedby", `${hint.id} ${describedBy}`);
      list.addEventListener("input", () => {
        const items = list.value === "" ? [] : list.value.split("\n");
        row.value =
          isListOperator(row.operator) || items.length > 1
            ? { kind: "list", items }
            : { kind: "one", text: items[0] ?? "" };
        emit();
      });
      const box = make("span", { class: "list-value" });
      box.append(list, hint);
      return box;
    }
    if (type === "bool") {
      const select = make("select", common);
      for (const value of ["true", "false"]) select.add(new Option(value, value));
      select.value = row.value.text;
      select.addEventListener("change", () => {
        row.value = { kind: "one", text: select.value };
        emit();
      });
      return select;
    }
    const input = make("input", { ...common, type: "text", spellcheck: "false", autocomplete: "off" });
    if (type === "int") input.inputMode = "numeric";
    if (type === "float") input.inputMode = "decimal";
    input.value = row.value.text;
    input.addEventListener("input", () => {
      row.value = { kind: "one", text: input.value };
      emit();
    });
    const known = knownValues(dataset, field);
    if (known.length === 0) return input;
    // The values the field is known to take, offered as the person types.
    const options = make("datalist", { id: uniqueId("known-values") });
    for (const value of known) options.append(new Option(value));
    input.setAttribute("list", options.id);
    const box = make("span", { class: "known-value" });
    box.append(input, options);
    return box;
  }

  return {
    show(shown, shownCatalog, shownDataset) {
      group = shown;
      catalog = shownCatalog;
      dataset = shownDataset;
      host.removeAttribute("aria-disabled");
      draw();
    },
    showUnshowable(reason, pushDown) {
      const note = make("div", { class: "unshowable", role: "status" });
      note.append(
        make("p", {}, `The builder cannot show this filter: ${reason}.`),
        make("p", { class: "hint" }, "The text beside it still holds it; edit it there."),
      );
      if (pushDown) note.append(button("Write it without NOT", "push-down", pushDown));
      host.replaceChildren(note);
    },
    markRows(problems) {
      host.querySelectorAll<HTMLElement>("[data-row-problems]").forEach((element) => {
        const found = problems[Number(element.dataset["rowProblems"]) - 1] ?? [];
        element.textContent = found.join(" ");
        const row = element.closest(".row");
        row?.querySelector('[data-control="value"]')?.setAttribute("aria-invalid", String(found.length > 0));
        row?.classList.toggle("invalid", found.length > 0);
      });
    },
  };
}
