import { element } from "../playground/dom.js";
import {
  CUSTOM_FIELD_LISTS,
  type CustomFieldList,
  type CustomFieldsConfig,
  type CustomFieldsLimit,
  checkCustomFields,
  cookieCaseNotices,
  DEFAULT_CUSTOM_FIELDS_LIMIT,
  mergeCustomFields,
} from "../src/api/custom-fields.js";
import type { SetCustomFieldsResult } from "../src/index.js";
import { call, scopeQuery } from "./api.js";
import { oneAtATime } from "./busy.js";
import { addsNothing, countWithNew, customFieldCount } from "./custom-field-count.js";
import { failureText, say, sentences } from "./messages.js";

/** The Field Types the dashboard offers, by the seed's words, and the list each one sets. */
const FIELD_TYPES: ReadonlyArray<{ list: CustomFieldList; label: string }> = [
  { list: "requestHeaders", label: "Request Header" },
  { list: "responseHeaders", label: "Response Header" },
  { list: "cookies", label: "Cookies" },
];

/** A list's heading: the Field Type's words, or for the lists only the API sets, the client's. */
function listTitle(list: CustomFieldList): string {
  const type = FIELD_TYPES.find((entry) => entry.list === list);
  if (type) return type.label;
  const noun = CUSTOM_FIELD_LISTS.find((entry) => entry.list === list)!.noun;
  return `${noun[0]!.toUpperCase()}${noun.slice(1)}`;
}

/** A notice of the rules without the list and index it starts with (`requestHeaders[2]: …`): the form names one field. */
const unplaced = (notice: string) => notice.replace(/^[A-Za-z]+\[\d+\]: /, "");

/**
 * The Custom Fields view: the zone's fields by type; Edit Custom Fields, Set new Custom Field
 * (Field Type, Field Name, Save), and Remove. The rules are applied as the name is typed, with the
 * client's own checks, and nothing is sent while they refuse it.
 */
export function setUpCustomFields(zoneId: () => string): { load(): Promise<void> } {
  const fieldType = element<HTMLSelectElement>("field-type");
  const fieldName = element<HTMLInputElement>("field-name");
  const form = element<HTMLFormElement>("new-custom-field");
  const editor = element("custom-fields-editor");
  const edit = element<HTMLButtonElement>("edit-custom-fields");
  let config: CustomFieldsConfig = {};
  // The console's client says which limit it holds the fields to (--custom-fields-limit).
  let limit: CustomFieldsLimit = DEFAULT_CUSTOM_FIELDS_LIMIT;
  let editing = false;

  function render(): void {
    const lists = element("custom-fields-list");
    lists.replaceChildren(
      ...CUSTOM_FIELD_LISTS.filter(
        ({ list }) => FIELD_TYPES.some((type) => type.list === list) || (config[list]?.length ?? 0) > 0,
      ).map(({ list, noun }) => {
        const box = document.createElement("section");
        box.className = "custom-field-list";
        const title = document.createElement("h2");
        title.textContent = listTitle(list);
        const names = document.createElement("ul");
        for (const name of config[list] ?? []) {
          const item = document.createElement("li");
          const code = document.createElement("code");
          code.textContent = name;
          item.append(code);
          if (editing) {
            const remove = document.createElement("button");
            remove.type = "button";
            remove.textContent = "Remove";
            remove.setAttribute("aria-label", `Remove ${noun} ${name}`);
            remove.addEventListener(
              "click",
              oneAtATime(remove, async () => {
                await change("remove", list, name);
              }),
            );
            item.append(remove);
          }
          names.append(item);
        }
        if (names.children.length === 0) {
          const none = document.createElement("li");
          none.className = "none";
          none.textContent = "None";
          names.append(none);
        }
        box.append(title, names);
        return box;
      }),
    );
    say("custom-fields-count", customFieldCount(config, limit));
    editor.hidden = !editing;
    edit.hidden = editing;
  }

  /** What the rules say of the typed name as it is now: notes, and the problems that refuse it. */
  function preview(): { notes: string[]; problems: string[] } {
    const list = fieldType.value as CustomFieldList;
    const name = fieldName.value;
    if (name === "") return { notes: [], problems: ["Type the field's name."] };
    const added = { [list]: [name] };
    const merged = mergeCustomFields(config, added, "add");
    const checked = checkCustomFields(merged, { limit });
    const notes = [...checked.notices, ...cookieCaseNotices(config, added)].map(unplaced);
    if (addsNothing(config, merged)) notes.push(`${name} is already a custom field: saving changes nothing.`);
    else notes.push(countWithNew(merged, list, limit));
    return { notes, problems: checked.problems.map((problem) => problem.message) };
  }

  function showPreview(showProblems: boolean): boolean {
    const { notes, problems } = preview();
    say("field-name-note", sentences(notes));
    const shown = showProblems || fieldName.value !== "";
    say("field-name-problem", shown ? sentences(problems) : "");
    fieldName.setAttribute("aria-invalid", String(shown && problems.length > 0));
    return problems.length === 0;
  }

  async function change(merge: "add" | "remove", list: CustomFieldList, name: string): Promise<boolean> {
    const answer = await call<SetCustomFieldsResult>("POST", "/api/custom-fields", {
      scope: { zoneId: zoneId() },
      merge,
      config: { [list]: [name] },
    });
    const place = merge === "add" ? "field-name-problem" : "custom-fields-problem";
    if (!answer.ok) {
      say(place, failureText(answer.error));
      return false;
    }
    say(place, "");
    config = answer.config;
    render();
    // The name as the zone now holds it (a header's in small letters).
    const held = answer.config[list]?.find((other) => other === name || other === name.toLowerCase()) ?? name;
    const done = merge === "add" ? `Saved ${held} (${listTitle(list)}).` : `Removed ${name}.`;
    const notes = [
      ...(answer.created ? ["The zone's custom fields ruleset was created."] : []),
      ...answer.notices.map(unplaced),
    ];
    say("custom-fields-status", sentences([done, ...notes]));
    return true;
  }

  edit.addEventListener("click", () => {
    editing = true;
    render();
    element("set-new-custom-field").focus();
  });
  element("done-custom-fields").addEventListener("click", () => {
    editing = false;
    form.hidden = true;
    render();
    edit.focus();
  });
  element("set-new-custom-field").addEventListener("click", () => {
    form.hidden = false;
    say("custom-fields-status", "");
    say("field-name-note", "");
    say("field-name-problem", "");
    fieldType.focus();
  });
  element("cancel-custom-field").addEventListener("click", () => {
    form.hidden = true;
    element("set-new-custom-field").focus();
  });
  fieldName.addEventListener("input", () => showPreview(false));
  fieldType.addEventListener("change", () => showPreview(false));
  const save = oneAtATime(form.querySelector<HTMLButtonElement>('button[type="submit"]')!, async () => {
    if (!showPreview(true)) {
      fieldName.focus();
      return;
    }
    if (await change("add", fieldType.value as CustomFieldList, fieldName.value)) {
      form.reset();
      form.hidden = true;
      element("set-new-custom-field").focus();
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void save();
  });

  return {
    async load() {
      const zone = zoneId();
      if (zone === "") {
        config = {};
        render();
        say("custom-fields-problem", "Type the Zone ID above: custom fields are a zone's.");
        return;
      }
      const answer = await call<{ config: CustomFieldsConfig; limit: CustomFieldsLimit }>(
        "GET",
        `/api/custom-fields?${scopeQuery({ zoneId: zone })}`,
      );
      if (!answer.ok) {
        say("custom-fields-problem", failureText(answer.error));
        return;
      }
      say("custom-fields-problem", "");
      config = answer.config;
      limit = answer.limit;
      render();
    },
  };
}
