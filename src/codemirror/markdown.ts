/** Text as HTML with `<`, `>`, `&` and quotes escaped. */
function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\*([^*]+)\*/g, "<em>$1</em>");
}

/**
 * The small Markdown the language service writes (paragraphs, fenced code, `code`, **bold**,
 * *emphasis*) as a DOM fragment; everything else stays text, and no HTML from the input survives.
 */
export function renderMarkdown(markdown: string): HTMLElement {
  const root = document.createElement("div");
  root.className = "cm-lpf-doc";
  const blocks = markdown.split(/(```[a-z]*\n[\s\S]*?\n```)/);
  const html: string[] = [];
  for (const block of blocks) {
    const fence = /^```[a-z]*\n([\s\S]*?)\n```$/.exec(block);
    if (fence) {
      html.push(`<pre>${escapeHtml(fence[1]!)}</pre>`);
      continue;
    }
    for (const paragraph of block.split(/\n{2,}/)) {
      if (paragraph.trim()) html.push(`<p>${inline(paragraph.trim()).replace(/\n/g, "<br>")}</p>`);
    }
  }
  root.innerHTML = html.join("");
  return root;
}
