import type { Catalog } from "../src/catalog/index.js";

/** Where a field picker is drawn: its search, its checkboxes and its count. */
export interface FieldPickerPlaces {
  search: HTMLInputElement;
  list: HTMLElement;
  count: HTMLElement;
  /** Says how many fields the search shows. */
  shown: HTMLElement;
}

/**
 * The fields of a catalog as checkboxes named by the field, with a search that narrows them to the
 * names holding what is typed (in any case). The fields come out in the order they were picked in
 * (`initial` first), which is the order of the columns they make.
 */
export function createFieldPicker(places: FieldPickerPlaces, catalog: Catalog, initial: readonly string[]) {
  const names = [...catalog.fields.keys()];
  let picked = [...initial];

  function changed(): void {
    places.list.querySelectorAll<HTMLInputElement>("input").forEach((check) => {
      check.checked = picked.includes(check.value);
    });
    places.count.textContent = `${picked.length} of ${names.length} selected`;
  }

  function narrow(): void {
    const wanted = places.search.value.trim().toLowerCase();
    let matching = 0;
    places.list.querySelectorAll<HTMLElement>(".checkbox").forEach((item) => {
      item.hidden = !item.querySelector("input")!.value.toLowerCase().includes(wanted);
      if (!item.hidden) matching++;
    });
    places.shown.textContent =
      wanted === ""
        ? ""
        : matching === 0
          ? `No field's name holds "${places.search.value.trim()}".`
          : `${matching} of ${names.length} fields hold "${places.search.value.trim()}".`;
    places.shown.hidden = wanted === "";
  }

  places.list.replaceChildren(
    ...names.map((name) => {
      const check = document.createElement("input");
      check.type = "checkbox";
      check.id = `${places.list.id}-${name}`;
      check.value = name;
      check.addEventListener("change", () => {
        picked = check.checked ? [...picked, name] : picked.filter((field) => field !== name);
        changed();
      });
      const label = document.createElement("label");
      label.htmlFor = check.id;
      label.textContent = name;
      const item = document.createElement("div");
      item.className = "checkbox";
      item.append(check, label);
      return item;
    }),
  );
  places.search.addEventListener("input", narrow);
  changed();
  narrow();

  return {
    /** The fields picked, in the order they were picked in. */
    picked: (): string[] => [...picked],
    /** Picks `fields` alone, in their order. */
    set(fields: readonly string[]): void {
      picked = fields.filter((name) => catalog.fields.has(name));
      changed();
    },
  };
}
