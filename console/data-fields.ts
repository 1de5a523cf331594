import { element } from "../playground/dom.js";
import { CUSTOM_FIELD_COLUMNS } from "../src/api/custom-fields.js";
import type { Catalog } from "../src/catalog/index.js";
import { say } from "./messages.js";

/** What the job's columns that carry custom fields (RequestHeaders, …) say they carry, by column. */
export type Carried = Partial<Record<string, string>>;

const carriesCustomFields = (name: string) => (CUSTOM_FIELD_COLUMNS as readonly string[]).includes(name);

/**
 * The Data fields of a job: a search, the dataset's fields as checkboxes (All fields) and the
 * fields picked so far in the order they were picked (Selected), which is the order of the job's
 * `field_names`. In Selected, a field moves up or down with its buttons or with Alt+↑ / Alt+↓ on
 * its checkbox; the search narrows All fields, and Select all / Select none act on what it shows.
 */
export function setUpDataFields() {
  const list = element("data-field-list");
  const selectedList = element("selected-field-list");
  const search = element<HTMLInputElement>("field-search");
  const showAll = element<HTMLButtonElement>("show-all-fields");
  const showSelected = element<HTMLButtonElement>("show-selected-fields");
  let names: string[] = [];
  let picked: string[] = [];
  let carried: Carried = {};
  let view: "all" | "selected" = "all";

  function caption(name: string, id: string): HTMLElement {
    const text = document.createElement("span");
    text.className = "carries";
    text.id = id;
    text.dataset["column"] = name;
    text.textContent = carried[name] ?? "";
    return text;
  }

  /** One checkbox a field of the dataset, labelled with its name, in the catalog's order. */
  function drawAll(): void {
    list.replaceChildren(
      ...names.map((name) => {
        const check = document.createElement("input");
        check.type = "checkbox";
        check.id = `data-field-${name}`;
        check.value = name;
        check.checked = picked.includes(name);
        check.addEventListener("change", () => (check.checked ? pick([name]) : unpick([name])));
        const label = document.createElement("label");
        label.htmlFor = check.id;
        label.textContent = name;
        const item = document.createElement("div");
        item.className = "checkbox";
        item.append(check, label);
        if (carriesCustomFields(name)) {
          item.append(caption(name, `carries-${name}`));
          check.setAttribute("aria-describedby", `carries-${name}`);
        }
        return item;
      }),
    );
    filter();
  }

  /** The picked fields in order, each with its place, its checkbox and Move up / Move down. */
  function drawSelected(focus?: { name: string; control: string }): void {
    if (picked.length === 0) {
      const none = document.createElement("li");
      none.className = "none";
      none.textContent = "No field selected yet: pick them in All fields.";
      selectedList.replaceChildren(none);
      return;
    }
    selectedList.replaceChildren(
      ...picked.map((name, index) => {
        const item = document.createElement("li");
        item.className = "selected-field";
        const check = document.createElement("input");
        check.type = "checkbox";
        check.id = `selected-field-${name}`;
        check.checked = true;
        check.dataset["control"] = "check";
        check.addEventListener("change", () => {
          const next = picked[index + 1] ?? picked[index - 1];
          unpick([name]);
          if (next) focusSelected(next, "check");
          else showSelected.focus();
        });
        const label = document.createElement("label");
        label.htmlFor = check.id;
        label.textContent = name;
        const moves = document.createElement("span");
        moves.className = "moves";
        for (const [by, text] of [
          [-1, "Move up"],
          [1, "Move down"],
        ] as const) {
          const move = document.createElement("button");
          move.type = "button";
          move.textContent = text;
          move.dataset["control"] = text;
          move.setAttribute("aria-label", `${text} ${name}`);
          const blocked = by < 0 ? index === 0 : index === picked.length - 1;
          if (blocked) move.setAttribute("aria-disabled", "true");
          move.addEventListener("click", () => moveBy(name, by, text));
          moves.append(move);
        }
        item.addEventListener("keydown", (event) => {
          if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
          event.preventDefault();
          const control = (event.target as HTMLElement).dataset["control"] ?? "check";
          moveBy(name, event.key === "ArrowUp" ? -1 : 1, control);
        });
        const place = document.createElement("span");
        place.className = "place";
        place.textContent = `${index + 1}.`;
        item.append(place, check, label, moves);
        if (carriesCustomFields(name)) {
          item.append(caption(name, `selected-carries-${name}`));
          check.setAttribute("aria-describedby", `selected-carries-${name}`);
        }
        return item;
      }),
    );
    if (focus) focusSelected(focus.name, focus.control);
  }

  function focusSelected(name: string, control: string): void {
    const item = element(`selected-field-${name}`).closest("li")!;
    item.querySelector<HTMLElement>(`[data-control="${control}"]`)?.focus();
  }

  function moveBy(name: string, by: -1 | 1, control: string): void {
    const from = picked.indexOf(name);
    const to = from + by;
    if (to < 0 || to >= picked.length) return;
    picked.splice(from, 1);
    picked.splice(to, 0, name);
    changed({ name, control });
    say("data-fields-moved", `${name} is now field ${to + 1} of ${picked.length}.`);
  }

  function pick(added: string[]): void {
    picked.push(...added.filter((name) => !picked.includes(name)));
    changed();
  }

  function unpick(removed: string[]): void {
    picked = picked.filter((name) => !removed.includes(name));
    changed();
  }

  function changed(focus?: { name: string; control: string }): void {
    list.querySelectorAll<HTMLInputElement>("input").forEach((check) => {
      check.checked = picked.includes(check.value);
    });
    drawSelected(focus);
    say("data-fields-count", `${picked.length} of ${names.length} selected`);
    showSelected.textContent = `Selected (${picked.length})`;
  }

  /** The fields the search shows: those whose name holds the searched text, in any case. */
  function shown(): string[] {
    const wanted = search.value.trim().toLowerCase();
    return names.filter((name) => name.toLowerCase().includes(wanted));
  }

  function filter(): void {
    const matching = new Set(shown());
    list.querySelectorAll<HTMLElement>(".checkbox").forEach((item) => {
      item.hidden = !matching.has(item.querySelector("input")!.value);
    });
    const wanted = search.value.trim();
    say(
      "data-fields-shown",
      wanted === ""
        ? ""
        : matching.size === 0
          ? `No field's name holds "${wanted}".`
          : `${matching.size} of ${names.length} fields hold "${wanted}".`,
    );
  }

  function setView(next: "all" | "selected"): void {
    view = next;
    showAll.setAttribute("aria-pressed", String(view === "all"));
    showSelected.setAttribute("aria-pressed", String(view === "selected"));
    list.hidden = view !== "all";
    element("search-fields").hidden = view !== "all";
    element("data-fields-shown").hidden = view !== "all" || search.value.trim() === "";
    element("selected-field-panel").hidden = view !== "selected";
  }

  search.addEventListener("input", filter);
  showAll.addEventListener("click", () => setView("all"));
  showSelected.addEventListener("click", () => setView("selected"));
  element("select-all-fields").addEventListener("click", () => pick(view === "all" ? shown() : names));
  element("select-no-fields").addEventListener("click", () => unpick(view === "all" ? shown() : [...picked]));

  return {
    /** Shows a dataset's fields; the fields picked before stay picked where the dataset has them. */
    show(catalog: Catalog): void {
      names = [...catalog.fields.keys()];
      picked = picked.filter((name) => catalog.fields.has(name));
      drawAll();
      changed();
    },
    /** The picked fields, in the order of the job's `field_names`. */
    picked: (): string[] => [...picked],
    /** What RequestHeaders, ResponseHeaders and Cookies say they will carry. */
    describe(next: Carried): void {
      carried = next;
      document.querySelectorAll<HTMLElement>("#data-fields [data-column]").forEach((place) => {
        place.textContent = carried[place.dataset["column"]!] ?? "";
      });
    },
    /** Back to nothing picked, every field shown, All fields. */
    reset(): void {
      search.value = "";
      picked = [];
      changed();
      filter();
      setView("all");
    },
  };
}
