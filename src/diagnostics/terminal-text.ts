/**
 * Text for a person's terminal. Sources, file names and values a server sends may hold control
 * characters (`ESC ] 0 ; … BEL` retitles the window, `ESC [ 2 J` clears it), bidi overrides that
 * reorder what is shown, and invisible characters: none of them reaches a terminal raw. Each is
 * shown as its code point, `<U+001B>`, so the person also sees what is there.
 *
 * Shown as code points: controls (C0 but newline and tab, DEL, C1), format characters (bidi
 * controls, zero-width spaces, the byte order mark; not the zero-width joiner emoji sequences are
 * made of), line and paragraph separators, and lone surrogates.
 */
const hidden = /[\0-\x08\x0b-\x1f\x7f-\x9f\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
const hiddenCharacter = new RegExp(`^${hidden.source}$`, "u");
const ZERO_WIDTH_JOINER = 0x200d;

/** `U+200B`: how messages name a character that cannot be shown. */
export function codePointName(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Whether `character` (one code point) is one a terminal must not receive raw. */
export function isHiddenCharacter(character: string): boolean {
  return character.codePointAt(0) !== ZERO_WIDTH_JOINER && hiddenCharacter.test(character);
}

/** `text` with every character a terminal must not receive raw shown as `<U+001B>`; newlines and tabs kept. */
export function terminalText(text: string): string {
  return text.replace(hidden, (character) =>
    character.codePointAt(0) === ZERO_WIDTH_JOINER ? character : `<${codePointName(character)}>`,
  );
}

/**
 * A name on one line of a terminal (a file's, a folder's): `terminalText` with newlines and tabs
 * also shown as code points, so that a name cannot start a line of its own (a forged `ok:` or a
 * CI runner's `::warning::` command) or shift the columns after it.
 */
export function terminalName(name: string): string {
  return terminalText(name).replace(/[\n\t]/g, (c) => (c === "\n" ? "<U+000A>" : "<U+0009>"));
}

/**
 * JSON for a person's terminal: the same value as `JSON.stringify` writes (it escapes C0 controls
 * itself), with the other characters a terminal must not receive raw written as `\u` escapes.
 */
export function terminalJson(value: unknown, space?: number): string {
  return terminalJsonText(JSON.stringify(value, null, space));
}

/**
 * JSON text written elsewhere (records whose 64-bit integers JSON.parse would round), made fit for
 * a terminal as `terminalJson` makes a value: JSON allows hidden characters only inside strings,
 * where a `\u` escape means the same.
 */
export function terminalJsonText(json: string): string {
  return json.replace(hidden, (character) => {
    if (character.codePointAt(0) === ZERO_WIDTH_JOINER) return character;
    let escaped = "";
    for (let i = 0; i < character.length; i++)
      escaped += `\\u${character.charCodeAt(i).toString(16).padStart(4, "0")}`;
    return escaped;
  });
}
