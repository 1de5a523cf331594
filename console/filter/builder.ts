import type { Catalog, FieldInfo } from "../../src/catalog/index.js";
import { knownValues } from "../../src/service/index.js";
import { isListOperator, OPERATORS, operatorsFor } from "../../src/syntax/index.js";
import { sentences } from "../messages.js";
import {
  addItem,
  builderFields,
  emptyGroup,
  type Group,
  type Item,
  isFinished,
  type Join,
  newGroup,
  newRow,
  parentOf,
  type Row,
  removeItem,
  rowsOf,
  setJoin,
  valueType,
  withField,
  withOperator,
} from "./model.js";

/** The Filter section's builder on the page: rows of Field, Operator and Value in AND and OR groups. */
export interface Builder {
  /** Shows a group to edit (the filter the text holds). */
  show(group: Group, catalog: Catalog, dataset: string): void;
  /** Shows that the builder cannot hold the text's filter, and why; `pushDown` offers the rewrite. */
  showUnshowable(reason: string, pushDown: (() => void) | undefined): void;
  /** Marks each finished row (in order, depth first) with the problems the text has there. */
  markRows(problems: ReadonlyArray<readonly string[]>): void;
  /** The numbers (1 for the first row) of the rows not yet in the filter: no field, or no value. */
  unfinished(): number[];
}

let nextId = 0;
const uniqueId = (prefix: string) => `${prefix}-${++nextId}`;

/** Each item's key for the controls drawn for it, kept while the item is: focus survives a redraw. */
const keys = new WeakMap<Item, string>();
const keyOf = (item: Item) => {
  const known = keys.get(item);
  if (known) return known;
  const key = uniqueId("item");
  keys.set(item, key);
  return key;
};

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

const JOIN_WORDS: Record<Join, string> = { and: "all of", or: "any of" };

/**
 * The builder in `host`, for any page with a filter. Each edit changes the group and calls `changed`
 * with it; the rows are drawn again only when what they offer changes (a field, an operator, a row
 * or group added, a join), and the control that had the focus, or the one a person goes on with,
 * gets it.
 */
export function createBuilder(host: HTMLElement, changed: (group: Group) => void): Builder {
  let root = emptyGroup();
  let catalog: Catalog | undefined;
  let dataset = "";

  const emit = () => changed(root);
  const fieldInfo = (name: string | null) => (name === null ? undefined : catalog!.fields.get(name));

  function draw(focus?: string): void {
    const focused = focus ?? (document.activeElement as HTMLElement | null)?.dataset?.["key"];
    const counts = { rows: 0, groups: 0 };
    host.replaceChildren(drawGroup(root, undefined, counts));
    if (focused) host.querySelector<HTMLElement>(`[data-key="${focused}"]`)?.focus();
  }

  /** A group: its items with the join between each two, and what adds to it. */
  function drawGroup(
    shown: Group,
    parent: Group | undefined,
    counts: { rows: number; groups: number },
  ): HTMLElement {
    const key = keyOf(shown);
    const box = make("div", {
      class: parent ? `group nested ${shown.join}` : "group",
      "data-join": shown.join,
    });
    const name = parent ? `Group ${++counts.groups}` : "Filter";
    if (parent) {
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", name);
      box.append(
        make(
          "p",
          { class: "group-head" },
          `${name}: ${JOIN_WORDS[shown.join]} (${shown.join.toUpperCase()})`,
        ),
      );
    }
    if (shown.items.length === 0)
      box.append(make("p", { class: "empty-filter" }, "No filter: every log line is pushed."));
    shown.items.forEach((item, index) => {
      const line = make("div", { class: "item" });
      if (index > 0) line.append(joinControl(shown, `${key}:join:${index}`));
      line.append(item.kind === "row" ? drawRow(shown, item, ++counts.rows) : drawGroup(item, shown, counts));
      box.append(line);
    });
    const actions = make("div", { class: "group-actions" });
    for (const join of ["and", "or"] as const)
      actions.append(
        button(join.toUpperCase(), `${key}:add-${join}`, () => add(shown, join, newRow()), {
          title: `Add a comparison joined with ${join.toUpperCase()}`,
        }),
      );
    if (shown.items.length > 0)
      for (const join of ["and", "or"] as const)
        actions.append(
          button(
            `${join.toUpperCase()} group`,
            `${key}:group-${join}`,
            () => add(shown, join, newGroup(join)),
            {
              title: `Add, joined with ${join.toUpperCase()}, a group of comparisons joined with ${join === "and" ? "OR" : "AND"}`,
            },
          ),
        );
    if (parent)
      actions.append(button(`Remove ${name.toLowerCase()}`, `${key}:remove`, () => remove(parent, shown)));
    box.append(actions);
    return box;
  }

  function button(
    text: string,
    key: string,
    onClick: () => void,
    attributes: Record<string, string> = {},
  ): HTMLButtonElement {
    const element = make("button", { type: "button", "data-key": key, ...attributes }, text);
    element.addEventListener("click", onClick);
    return element;
  }

  /** The join between two items: the group's one join, so that each of its joins shows it and sets it. */
  function joinControl(shown: Group, key: string): HTMLElement {
    const select = make("select", { "data-key": key, class: "join-select" });
    for (const join of ["and", "or"] as const) select.add(new Option(join.toUpperCase(), join));
    select.value = shown.join;
    select.addEventListener("change", () => {
      const join = select.value as Join;
      if (join === shown.join) return emit();
      const first = shown.items[0]!;
      setJoin(root, shown, join);
      // The joins of the group that now holds the items, where the person goes on.
      const holder = parentOf(root, first) ?? root;
      const at = Math.max(1, holder.items.indexOf(first) + 1);
      draw(`${keyOf(holder)}:join:${at}`);
      emit();
    });
    return labelled("Joined with", select, "join");
  }

  function add(shown: Group, join: Join, item: Item): void {
    addItem(root, shown, join, item);
    // The new item's first Field control takes the focus, as a person would go on there.
    const first = item.kind === "row" ? item : rowsOf(item)[0]!;
    draw(`${keyOf(first)}:field`);
    emit();
  }

  function remove(shown: Group, item: Item): void {
    const index = shown.items.indexOf(item);
    const neighbour = shown.items[index - 1] ?? shown.items[index + 1];
    removeItem(root, shown, index);
    const holder = (neighbour && parentOf(root, neighbour)) ?? root;
    draw(`${keyOf(holder)}:add-and`);
    emit();
  }

  /**
   * A row of Field, Operator and Value. The Field and Operator controls stay in place as they change
   * (a select drawn anew would lose what was typed to pick an option); the Operator's options and
   * the Value control follow the field's type and the operator. A new row offers no field, and its
   * Operator and Value wait for one.
   */
  function drawRow(shown: Group, row: Row, number: number): HTMLElement {
    const key = keyOf(row);
    const box = make("div", { class: "row", role: "group", "aria-label": `Comparison ${number}` });
    const problemsId = uniqueId("row-problems");
    const update = (next: Row) => Object.assign(row, next);

    const fieldSelect = make("select", { "data-key": `${key}:field`, "data-control": "field" });
    if (row.field === null) {
      const none = new Option("Choose a field", "", true, true);
      none.disabled = true;
      fieldSelect.add(none);
    }
    for (const info of builderFields(catalog!))
      fieldSelect.add(new Option(info.deprecated ? `${info.name} (deprecated)` : info.name, info.name));
    fieldSelect.value = row.field ?? "";

    const operatorSelect = make("select", { "data-key": `${key}:operator`, "data-control": "operator" });
    const fillOperators = () => {
      const field = fieldInfo(row.field);
      operatorSelect.disabled = field === undefined;
      operatorSelect.replaceChildren(
        ...(field
          ? operatorsFor(field.type).map((op) => new Option(OPERATORS[op].label, op))
          : [new Option("Choose a field first", "")]),
      );
      operatorSelect.value = row.operator ?? "";
    };

    const valueBox = () => labelled("Value", valueControl(row, `${key}:value`, problemsId), "control value");
    let value = valueBox();
    const redrawValue = () => {
      const next = valueBox();
      value.replaceWith(next);
      value = next;
    };

    fieldSelect.addEventListener("change", () => {
      if (fieldSelect.value !== row.field) {
        const was = fieldInfo(row.field);
        update(withField(row, catalog!.fields.get(fieldSelect.value)!, was));
        fieldSelect.querySelector('option[value=""]')?.remove();
        fillOperators();
        redrawValue();
      }
      emit();
    });
    operatorSelect.addEventListener("change", () => {
      const operator = operatorSelect.value as NonNullable<Row["operator"]>;
      if (operator !== row.operator) {
        update(withOperator(row, operator));
        redrawValue();
      }
      emit();
    });
    fillOperators();

    const remove_ = button("Remove", `${key}:remove`, () => remove(shown, row), {
      "aria-label": `Remove comparison ${number}`,
    });
    const problems = make("p", { class: "row-problems", id: problemsId, "aria-live": "polite" });
    box.append(
      labelled("Field", fieldSelect, "control field"),
      labelled("Operator", operatorSelect, "control operator"),
      value,
      remove_,
      problems,
    );
    return box;
  }

  /** The Value control for the field's type: true/false, a number, a text with the known values, or a list. */
  function valueControl(row: Row, key: string, describedBy: string): HTMLElement {
    const common = { "data-key": key, "data-control": "value", "aria-describedby": describedBy };
    const field = fieldInfo(row.field);
    if (!field) {
      const waiting = make("input", { ...common, type: "text", disabled: "" });
      return waiting;
    }
    const type = valueType(field);
    if ((row.operator && isListOperator(row.operator)) || row.value?.kind === "list") {
      const list = make("textarea", { ...common, rows: "3", spellcheck: "false" });
      list.value = row.value?.kind === "list" ? row.value.items.join("\n") : (row.value?.text ?? "");
      const hint = make("span", { class: "hint", id: uniqueId("list-hint") }, "one value a line");
      list.setAttribute("aria-describedby", `${hint.id} ${describedBy}`);
      list.addEventListener("input", () => {
        const items = list.value === "" ? [] : list.value.split("\n");
        row.value =
          (row.operator && isListOperator(row.operator)) || items.length > 1
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
      select.value = row.value?.kind === "one" ? row.value.text : "true";
      select.addEventListener("change", () => {
        row.value = { kind: "one", text: select.value };
        emit();
      });
      return select;
    }
    const input = make("input", { ...common, type: "text", spellcheck: "false", autocomplete: "off" });
    if (type === "int") input.inputMode = "numeric";
    if (type === "float") input.inputMode = "decimal";
    input.value = row.value?.kind === "one" ? row.value.text : "";
    input.addEventListener("input", () => {
      row.value = { kind: "one", text: input.value };
      emit();
    });
    return withKnownValues(input, field);
  }

  /** The values the field is known to take, offered as the person types. */
  function withKnownValues(input: HTMLInputElement, field: FieldInfo): HTMLElement {
    const known = knownValues(dataset, field);
    if (known.length === 0) return input;
    const options = make("datalist", { id: uniqueId("known-values") });
    for (const value of known) options.append(new Option(value));
    input.setAttribute("list", options.id);
    const box = make("span", { class: "known-value" });
    box.append(input, options);
    return box;
  }

  /** Why a row is not yet in the filter, in the words of what it waits for. */
  const waitsFor = (row: Row) => (row.field === null ? "Choose a field." : "Type a value.");

  return {
    show(shown, shownCatalog, shownDataset) {
      root = shown;
      catalog = shownCatalog;
      dataset = shownDataset;
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
      const elements = host.querySelectorAll<HTMLElement>(".row");
      let finished = 0;
      rowsOf(root).forEach((row, index) => {
        const element = elements[index];
        if (!element) return;
        const place = element.querySelector<HTMLElement>(".row-problems")!;
        const found = isFinished(row) ? (problems[finished++] ?? []) : [];
        place.textContent = isFinished(row) ? sentences(found) : waitsFor(row);
        place.classList.toggle("waiting", !isFinished(row));
        element
          .querySelector('[data-control="value"]')
          ?.setAttribute("aria-invalid", String(found.length > 0));
        element.classList.toggle("invalid", found.length > 0);
        element.classList.toggle("unfinished", !isFinished(row));
      });
    },
    unfinished() {
      if (host.querySelector(".unshowable")) return [];
      return rowsOf(root).flatMap((row, index) => (isFinished(row) ? [] : [index + 1]));
    },
  };
}
