import { EditorView } from "@codemirror/view";

/** Token colours for light and dark themes; a page's own theme may override the `cm-lpf-*` classes. */
export const filterTheme = EditorView.baseTheme({
  "&light .cm-lpf-field": { color: "#1f4e8c" },
  "&light .cm-lpf-operator": { color: "#8a3ffc", fontWeight: "500" },
  "&light .cm-lpf-logic": { color: "#b3261e", fontWeight: "600" },
  "&light .cm-lpf-string": { color: "#1b7f3b" },
  "&light .cm-lpf-number": { color: "#b45309" },
  "&light .cm-lpf-bool": { color: "#b45309" },
  "&light .cm-lpf-comment": { color: "#6b7280", fontStyle: "italic" },
  "&light .cm-lpf-punctuation": { color: "#4b5563" },
  "&dark .cm-lpf-field": { color: "#8ab4f8" },
  "&dark .cm-lpf-operator": { color: "#c58af9", fontWeight: "500" },
  "&dark .cm-lpf-logic": { color: "#f28b82", fontWeight: "600" },
  "&dark .cm-lpf-string": { color: "#81c995" },
  "&dark .cm-lpf-number": { color: "#fdd663" },
  "&dark .cm-lpf-bool": { color: "#fdd663" },
  "&dark .cm-lpf-comment": { color: "#9aa0a6", fontStyle: "italic" },
  "&dark .cm-lpf-punctuation": { color: "#bdc1c6" },
  ".cm-lpf-invalid": { textDecoration: "underline wavy #d93025" },
  ".cm-lpf-doc": { maxWidth: "440px", padding: "2px 8px", fontSize: "13px", lineHeight: "1.45" },
  ".cm-lpf-doc p": { margin: "4px 0" },
  ".cm-lpf-doc pre": { margin: "4px 0", whiteSpace: "pre-wrap", wordBreak: "break-all", fontSize: "12px" },
});
