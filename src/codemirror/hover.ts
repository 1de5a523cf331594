import { hoverTooltip } from "@codemirror/view";
import { renderMarkdown } from "./markdown.js";
import { filterService } from "./service.js";

/** What is under the pointer: a field's type and description, an operator's meaning, the JSON emitted. */
export const filterHover = hoverTooltip((view, pos) => {
  const hover = view.state.field(filterService).hover(view.state.doc.toString(), pos);
  if (!hover) return null;
  return {
    pos: hover.range.start,
    end: hover.range.end,
    above: true,
    create: () => ({ dom: renderMarkdown(hover.contents) }),
  };
});
