import { DEFAULT_DATASET, datasetNames } from "../src/catalog/index.js";
import type { HighlightKind } from "../src/service/index.js";
import { stringEscapes } from "../src/syntax/strings.js";
import { nearMissTokens } from "../src/syntax/tokens.js";
import { UNIT_WORDS_LOWER } from "../src/syntax/units.js";
import { BOOLEAN_WORDS, LOGIC, OPERATOR_SPELLINGS, PUNCTUATION } from "../src/syntax/vocabulary.js";

/*
 * The filter language's token classes as the grammars editors without a language server colour
 * with: a TextMate grammar (VS Code, Sublime Text) and a Vim syntax file. The words and symbols
 * come from the vocabulary, so a new operator or alias reaches every editor; the character
 * classes are the scanner's (src/syntax/lexer.ts), and test/editors/ holds each grammar to the
 * scanner on every token class and on generated text. `node editors/generate.mjs` writes the
 * files; the tests fail when a committed one differs from what this makes.
 */

const isWord = (text: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(text);
const longestFirst = (texts: Iterable<string>) =>
  [...new Set(texts)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));

/** Every operator spelling the scanner makes an operator token of: accepted ones and near misses. */
const operatorSpellings = [...OPERATOR_SPELLINGS.keys(), ...nearMissTokens.keys()];

/** What the grammars are made of, each list as the scanner reads it. */
export const lexicon = {
  /** `eq`, `startsWith`, `ne`: whole words, case-sensitive. */
  operatorWords: longestFirst(operatorSpellings.filter(isWord)),
  /** `!eq`, `!startsWith`, and near misses such as `!lt`: `!` and a whole word. */
  bangOperators: longestFirst(operatorSpellings.filter((s) => s.startsWith("!") && isWord(s.slice(1)))),
  /** `==`, `<=`, `<>`: symbols, the longest read first. */
  symbolOperators: longestFirst(operatorSpellings.filter((s) => !isWord(s) && !isWord(s.slice(1)))),
  /** `and`, `or`, `not`, in any letter case. */
  logicWords: Object.values(LOGIC).map((logic) => logic.word),
  /** `&&`, `||`, `!`. */
  logicSymbols: longestFirst(Object.values(LOGIC).map((logic) => logic.symbol)),
  booleans: [...BOOLEAN_WORDS],
  /** Braces are tokens only right after an operator (a list in the wrong brackets, E0111): a grammar colours them as the unexpected characters they are elsewhere. */
  punctuation: PUNCTUATION.filter((mark) => mark !== "{" && mark !== "}"),
  /** What follows `\` in a string: JSON's escapes and `\'`; `u` takes four hex digits. */
  escapes: Object.keys(stringEscapes),
};

/** Characters the scanner reads as blanks. */
const BLANKS = [" ", "\t", "\n", "\r", "\f", "\v", "\u00a0", "\ufeff"];
/** “ ” „ ‘ ’ ‚: the quotes word processors write, scanned as a string (an error with its fix). */
const CURLY_QUOTES = ["\u201c", "\u201d", "\u201e", "\u2018", "\u2019", "\u201a"];
/** The characters a word starts with and goes on with, as a range of a character class. */
const WORD_CHARACTERS = "A-Za-z0-9_";
/**
 * Where a run of characters no token starts with ends (the scanner's "invalid" span): at a blank,
 * a word or number, or a character a symbol, a string or a comment starts with.
 */
const STARTERS = [
  ...new Set([
    ...BLANKS,
    ...CURLY_QUOTES,
    ...[...lexicon.symbolOperators, ...lexicon.logicSymbols].map((symbol) => symbol[0]!),
    ...PUNCTUATION,
    ...['"', "'", "#", "-"],
  ]),
];

/** The TextMate scope of each class the language service colours (src/service, `highlights`). */
export const TEXTMATE_SCOPES: Record<HighlightKind, string> = {
  field: "variable.other.property.lpf",
  operator: "keyword.operator.comparison.lpf",
  logic: "keyword.other.logical.lpf",
  string: "string.quoted.lpf",
  number: "constant.numeric.lpf",
  bool: "constant.language.boolean.lpf",
  punctuation: "punctuation.lpf",
  comment: "comment.line.number-sign.lpf",
  invalid: "invalid.illegal.lpf",
};

/**
 * The scopes within a `# dataset:` comment, which stays a comment: the line as a directive, its
 * keyword and the dataset's name.
 */
export const DIRECTIVE_SCOPES = {
  directive: "meta.directive.dataset.lpf",
  keyword: "keyword.other.directive.lpf",
  dataset: "entity.name.type.dataset.lpf",
};

/** The Vim groups of a `# dataset:` comment (`# dataset:`, and the name), and the groups they link to. */
export const VIM_DIRECTIVE_GROUPS = {
  directive: { group: "lpfDirective", link: "PreProc" },
  dataset: { group: "lpfDataset", link: "Constant" },
};

/** The Vim highlight group of each class, and the standard group it links to. */
export const VIM_GROUPS: Record<HighlightKind, { group: string; link: string }> = {
  field: { group: "lpfField", link: "Identifier" },
  operator: { group: "lpfOperator", link: "Operator" },
  logic: { group: "lpfLogic", link: "Keyword" },
  string: { group: "lpfString", link: "String" },
  number: { group: "lpfNumber", link: "Number" },
  bool: { group: "lpfBoolean", link: "Boolean" },
  punctuation: { group: "lpfDelimiter", link: "Delimiter" },
  comment: { group: "lpfComment", link: "Comment" },
  invalid: { group: "lpfInvalid", link: "Error" },
};

// ---- TextMate (Oniguruma) ----

const onigChar = (char: string) => {
  const code = char.codePointAt(0)!;
  if (code > 0x7e || code < 0x20) return `\\x{${code.toString(16)}}`;
  return /[\\^$.|?*+()[\]{}/-]/.test(char) ? `\\${char}` : char;
};
const onigText = (text: string) => [...text].map(onigChar).join("");
const onigAny = (texts: string[]) => `(?:${texts.map(onigText).join("|")})`;
const onigClass = (chars: string[], negated = false, ranges = "") =>
  `[${negated ? "^" : ""}${ranges}${chars.map(onigChar).join("")}]`;
/** A word ends where no word character follows: `eqx` is a field, not `eq` then `x`. */
const ONIG_WORD_END = "(?![A-Za-z0-9_])";
/*
 * An unquoted run (src/syntax/lexer.ts): word characters, the ASCII joiners and visible characters
 * beyond ASCII but curly quotes, so that `a.com`, `/api/v1`, `1.2.3.4` and `été` are one field.
 */
const ONIG_JOINER = "[\\-./:;@$%*+?\\\\^~]";
const ONIG_WIDE_RUN =
  "(?:\\x{200d}|(?![\\x{2018}\\x{2019}\\x{201a}\\x{201c}\\x{201d}\\x{201e}])[^\\x{0}-\\x{9f}\\p{Z}\\p{Cf}\\p{Cs}])";
const ONIG_RUN = `(?:[A-Za-z0-9_]|${ONIG_JOINER}|${ONIG_WIDE_RUN})`;
/** What joins a number into a run: a joiner, or a visible character beyond ASCII that is no letter or digit. */
const ONIG_NUMBER_JOIN = `(?:${ONIG_JOINER}|(?![\\p{L}\\p{M}\\p{N}])${ONIG_WIDE_RUN})`;
const ONIG_NUMBER_TEXT = "(?>-?[0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)";
const ONIG_FIELD = [
  `[A-Za-z_][A-Za-z0-9_]*${ONIG_RUN}*`,
  `${ONIG_NUMBER_TEXT}(?=${ONIG_NUMBER_JOIN})${ONIG_RUN}*`,
  `(?=${ONIG_RUN}*?[\\p{L}\\p{N}_])(?:${ONIG_JOINER}|${ONIG_WIDE_RUN})${ONIG_RUN}*`,
].join("|");
const ONIG_NUMBER = `${ONIG_NUMBER_TEXT}(?!${ONIG_NUMBER_JOIN})`;
/**
 * A unit or a status class's `x`s right after a number (src/syntax/units.ts), in any letter case
 * but `M`, where nothing of a word follows: the scanner reads the number and it as one value.
 */
const anyCase = (word: string, cls: (chars: string[]) => string) =>
  word === "m" ? word : [...word].map((c) => (/[a-z]/.test(c) ? cls([c, c.toUpperCase()]) : c)).join("");
const ONIG_UNIT = `(?:${UNIT_WORDS_LOWER.map((word) => anyCase(word, (chars) => onigClass(chars))).join("|")}|[xX]+)(?![A-Za-z0-9_\\x{b5}\\x{3bc}])`;
const ONIG_UNIT_NUMBER = `(?>-?[0-9]+(?:\\.[0-9]+)?)(?=${ONIG_UNIT})[A-Za-z\\x{b5}\\x{3bc}]+`;

/** The TextMate grammar, `source.lpf`. Patterns tried at one place in order: operators before `!` and words before fields. */
export function textMateGrammar(): object {
  const s = TEXTMATE_SCOPES;
  const quoted = (quote: string) => ({
    name: s.string,
    begin: onigText(quote),
    beginCaptures: { "0": { name: "punctuation.definition.string.begin.lpf" } },
    // A string ends at its quote or, unterminated, at the end of its line (as the scanner reads it).
    end: `(${onigText(quote)})|$`,
    endCaptures: { "1": { name: "punctuation.definition.string.end.lpf" } },
    patterns: [{ include: "#escape" }],
  });
  return {
    $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
    name: "Logpush filter",
    scopeName: "source.lpf",
    fileTypes: ["lpf"],
    patterns: [
      "comment",
      "string",
      "unitNumber",
      "number",
      "operator",
      "logic",
      "boolean",
      "field",
      "punctuation",
      "invalid",
    ].map((name) => ({ include: `#${name}` })),
    repository: {
      comment: {
        patterns: [
          {
            // `# dataset: NAME` (src/syntax/directive.ts): a comment the parser reads the dataset from.
            name: `${s.comment} ${DIRECTIVE_SCOPES.directive}`,
            match: "(#)[ \\t]*(dataset)[ \\t]*(:)[ \\t]*(.*?)[ \\t]*$",
            captures: {
              "1": { name: "punctuation.definition.comment.lpf" },
              "2": { name: DIRECTIVE_SCOPES.keyword },
              "3": { name: "punctuation.separator.key-value.lpf" },
              "4": { name: DIRECTIVE_SCOPES.dataset },
            },
          },
          {
            name: s.comment,
            match: "(#).*$",
            captures: { "1": { name: "punctuation.definition.comment.lpf" } },
          },
        ],
      },
      string: {
        patterns: [quoted('"'), quoted("'"), { name: s.string, match: curlyString("onig") }],
      },
      escape: {
        patterns: [
          {
            name: "constant.character.escape.lpf",
            match: `\\\\(?:${onigClass(lexicon.escapes)}|u[0-9A-Fa-f]{4})`,
          },
          { name: "invalid.illegal.escape.lpf", match: "\\\\." },
        ],
      },
      unitNumber: { name: s.field, match: ONIG_UNIT_NUMBER },
      number: { name: s.number, match: ONIG_NUMBER },
      operator: {
        name: s.operator,
        match: `${onigAny(lexicon.symbolOperators)}|${onigAny(lexicon.bangOperators)}${ONIG_WORD_END}|${onigAny(lexicon.operatorWords)}${ONIG_WORD_END}`,
      },
      logic: {
        name: s.logic,
        match: `(?i:${onigAny(lexicon.logicWords)})${ONIG_WORD_END}|${onigAny(lexicon.logicSymbols)}`,
      },
      boolean: { name: s.bool, match: `${onigAny(lexicon.booleans)}${ONIG_WORD_END}` },
      field: { name: s.field, match: ONIG_FIELD },
      punctuation: { name: s.punctuation, match: onigClass(lexicon.punctuation) },
      invalid: {
        name: s.invalid,
        match: `${onigClass(BLANKS, true)}${onigClass(STARTERS, true, WORD_CHARACTERS)}*`,
      },
    },
  };
}

function curlyString(flavour: "onig" | "vim"): string {
  if (flavour === "onig") {
    const quote = onigClass(CURLY_QUOTES);
    return `${quote}${onigClass([...CURLY_QUOTES, "\n", "\r"], true)}*${quote}?`;
  }
  const quote = vimClass(CURLY_QUOTES);
  return `${quote}${vimClass(CURLY_QUOTES, true)}*${quote}\\=`;
}

/** A TextMate grammar as the XML property list Sublime Text reads (`.tmLanguage`). */
export function propertyList(value: unknown): string {
  const xmlText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const lines: string[] = [];
  const write = (item: unknown, indent: string) => {
    if (Array.isArray(item)) {
      lines.push(`${indent}<array>`);
      for (const element of item) write(element, `${indent}  `);
      lines.push(`${indent}</array>`);
    } else if (typeof item === "object" && item !== null) {
      lines.push(`${indent}<dict>`);
      for (const [key, element] of Object.entries(item)) {
        if (key === "$schema") continue;
        lines.push(`${indent}  <key>${xmlText(key)}</key>`);
        write(element, `${indent}  `);
      }
      lines.push(`${indent}</dict>`);
    } else lines.push(`${indent}<string>${xmlText(String(item))}</string>`);
  };
  write(value, "");
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- Generated by editors/generate.mjs from filterc's vocabulary: do not edit. -->
<plist version="1.0">
${lines.join("\n")}
</plist>
`;
}

// ---- Vim (magic patterns) ----

const vimCode = (char: string) => char.codePointAt(0)!.toString(16).padStart(4, "0");
/** A character in a collection: only `]`, `^`, `-` and `\` take a backslash there; `/` ends the pattern. */
const vimClassChar = (char: string) => {
  const code = char.codePointAt(0)!;
  if (code > 0x7e || code < 0x20) return `\\u${vimCode(char)}`;
  if (char === "/") return "\\d47";
  return /[\]^\\-]/.test(char) ? `\\${char}` : char;
};
const vimText = (text: string) =>
  [...text]
    .map((char) =>
      char.codePointAt(0)! > 0x7e ? `\\%u${vimCode(char)}` : /[\\/.*[~^$]/.test(char) ? `\\${char}` : char,
    )
    .join("");
const vimAny = (texts: string[]) => `\\%(${texts.map(vimText).join("\\|")}\\)`;
const vimClass = (chars: string[], negated = false, ranges = "") =>
  `[${negated ? "^" : ""}${ranges}${chars.map(vimClassChar).join("")}]`;
const VIM_WORD_END = "[A-Za-z0-9_]\\@!";
/*
 * The unquoted run of the TextMate grammar, as far as Vim's patterns go: a character beyond ASCII
 * joins unless it is a curly quote, a space or an invisible one, and counts as a letter.
 */
const VIM_JOINER = "[-.\\/:;@$%*+?\\\\^~]";
const VIM_WIDE_RUN =
  "\\%([\\u2018\\u2019\\u201a\\u201c\\u201d\\u201e\\u00a0\\u2000-\\u200c\\u200e\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u3000\\ufeff\\u0080-\\u009f]\\)\\@![^\\x00-\\x7f]";
const VIM_RUN = `\\%([A-Za-z0-9_]\\|${VIM_JOINER}\\|${VIM_WIDE_RUN}\\)`;
const VIM_NUMBER_TEXT = "\\%(-\\=[0-9]\\+\\%(\\.[0-9]\\+\\)\\=\\%([eE][+-]\\=[0-9]\\+\\)\\=\\)\\@>";
const VIM_UNIT = `\\%(${UNIT_WORDS_LOWER.map((word) => anyCase(word, (chars) => `[${chars.join("")}]`)).join("\\|")}\\|[xX]\\+\\)[A-Za-z0-9_\\u00b5\\u03bc]\\@!`;
const VIM_UNIT_NUMBER = `\\%(-\\=[0-9]\\+\\%(\\.[0-9]\\+\\)\\=\\)\\@>\\%(${VIM_UNIT}\\)\\@=[A-Za-z\\u00b5\\u03bc]\\+`;

/** The Vim syntax file (`syntax/lpf.vim`). */
export function vimSyntax(): string {
  const g = Object.fromEntries(
    Object.entries(VIM_GROUPS).map(([kind, { group }]) => [kind, group]),
  ) as Record<HighlightKind, string>;
  const escapes = `\\\\\\%(${vimClass(lexicon.escapes)}\\|u\\x\\{4}\\)`;
  const region = (quote: string) =>
    `syntax region ${g.string} start=/${vimText(quote)}/ skip=/\\\\./ end=/${vimText(quote)}/ end=/$/ contains=lpfEscape,lpfInvalidEscape`;
  const d = VIM_DIRECTIVE_GROUPS;
  const links = [...Object.values(VIM_GROUPS), ...Object.values(d)].map(
    ({ group, link }) => `highlight default link ${group} ${link}`,
  );
  return `" Vim syntax file
" Language: Cloudflare Logpush filter (filterc), *.lpf
" Generated by editors/generate.mjs from filterc's vocabulary: do not edit.

if exists('b:current_syntax')
  finish
endif

syntax case match
syntax sync minlines=1

" Where two items start at one place, the one defined later wins: the least specific come first.
syntax match ${g.invalid} /${vimClass(BLANKS, true)}${vimClass(STARTERS, true, WORD_CHARACTERS)}*/
syntax match ${g.field} /[A-Za-z_][A-Za-z0-9_]*${VIM_RUN}*/
syntax match ${g.field} /\\%(${VIM_RUN}\\{-}\\%([A-Za-z0-9_]\\|${VIM_WIDE_RUN}\\)\\)\\@=\\%(${VIM_JOINER}\\|${VIM_WIDE_RUN}\\)${VIM_RUN}*/
syntax match ${g.bool} /${vimAny(lexicon.booleans)}${VIM_WORD_END}/
syntax match ${g.logic} /\\c${vimAny(lexicon.logicWords)}${VIM_WORD_END}/
syntax match ${g.logic} /${vimAny(lexicon.logicSymbols)}/
syntax match ${g.operator} /${vimAny(lexicon.operatorWords)}${VIM_WORD_END}/
syntax match ${g.operator} /${vimAny(lexicon.bangOperators)}${VIM_WORD_END}/
syntax match ${g.operator} /${vimAny(lexicon.symbolOperators)}/
syntax match ${g.number} /${VIM_NUMBER_TEXT}\\%(${VIM_JOINER}\\)\\@!/
syntax match ${g.field} /${VIM_NUMBER_TEXT}\\%(${VIM_JOINER}\\)\\@=${VIM_RUN}*/
syntax match ${g.field} /${VIM_UNIT_NUMBER}/
syntax match ${g.punctuation} /${vimClass(lexicon.punctuation)}/
syntax match lpfInvalidEscape /\\\\./ contained
syntax match lpfEscape /${escapes}/ contained
${region('"')}
${region("'")}
syntax match ${g.string} /${curlyString("vim")}/
syntax match ${g.comment} /#.*/ contains=@Spell
" \`# dataset: NAME\`: the comment the parser reads the file's dataset from.
syntax match ${d.directive.group} /#[ \\t]*dataset[ \\t]*:.*/ contains=${d.dataset.group}
syntax match ${d.dataset.group} /:[ \\t]*\\zs.\\{-}\\ze[ \\t]*$/ contained

${links.join("\n")}
highlight default link lpfEscape SpecialChar
highlight default link lpfInvalidEscape Error

let b:current_syntax = 'lpf'
`;
}

/** The datasets a setting may name, and the one it defaults to. */
export const datasetSetting = { enum: [...datasetNames], default: DEFAULT_DATASET };

/** The snippet that starts a file with its `# dataset:` directive, offering every dataset. */
export const datasetSnippet = {
  prefix: "dataset",
  description: "# dataset: NAME, the dataset this file's filter is for",
  body: [`# dataset: \${1|${datasetNames.join(",")}|}`, "$0"],
};
