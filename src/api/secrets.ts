/** What replaces a credential wherever a request, an error or a destination is shown. */
export const MASK = "****";

/** A prefix of a secret this long or longer, echoed by a server, is masked too. */
const MASKED_PREFIX_LENGTH = 8;

/**
 * `text` with every form of each secret a server may echo replaced by `****`: the secret as given,
 * trimmed, JSON-escaped (with `/` as `\/` too), URL-encoded (a space as `%20` and as `+`, hex
 * digits in either case), and any prefix of eight characters or more of each of these (a truncated
 * echo).
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  return SecretMask.of(secrets).apply(text);
}

/** `maskSecrets` with the forms of its secrets worked out once, for masking many texts. */
export class SecretMask {
  /** Each form's start (its first eight characters, or all of a shorter form): text without any holds no secret. */
  private readonly starts: string[];

  private constructor(
    /** Longest first, across all secrets: one secret's form may hold another's. */
    private readonly forms: readonly string[],
  ) {
    this.starts = [...new Set(forms.map((form) => form.slice(0, MASKED_PREFIX_LENGTH)))];
  }

  static of(secrets: readonly string[]): SecretMask {
    return new SecretMask([]).with(secrets);
  }

  /** This mask and the forms of `secrets` besides. */
  with(secrets: readonly string[]): SecretMask {
    if (secrets.length === 0) return this;
    const forms = new Set([...this.forms, ...secrets.flatMap(secretForms)]);
    forms.delete("");
    return new SecretMask([...forms].sort((a, b) => b.length - a.length));
  }

  apply(text: string): string {
    if (!this.starts.some((start) => text.includes(start))) return text;
    let masked = text;
    for (const form of this.forms) if (masked.includes(form)) masked = masked.split(form).join(MASK);
    return maskPrefixes(
      masked,
      this.forms.filter((form) => form.length >= MASKED_PREFIX_LENGTH),
    );
  }
}

/** The forms a secret takes on its way: as given, trimmed, JSON-escaped and URL-encoded. */
function secretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const encoded = encodeURIComponent(secret);
  const encodings = encoded.includes("%20") ? [encoded, encoded.replaceAll("%20", "+")] : [encoded];
  if (/%(?:[A-F][0-9A-F]|[0-9][A-F])/.test(encoded))
    for (const form of [...encodings])
      encodings.push(form.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase()));
  const forms = [secret, secret.trim(), json, ...encodings];
  if (json.includes("/")) forms.push(json.replaceAll("/", "\\/"));
  return forms;
}

/**
 * Replaces each run of text that starts like one of `forms` for at least the masked prefix length,
 * as far as the form that goes furthest there matches. Each form's next start is looked up once
 * past each run, so the time grows with the text times the forms.
 */
function maskPrefixes(text: string, forms: readonly string[]): string {
  if (forms.length === 0) return text;
  const starts = forms.map((form) => form.slice(0, MASKED_PREFIX_LENGTH));
  const next = starts.map((start) => text.indexOf(start));
  let out = "";
  let from = 0;
  for (;;) {
    let at = -1;
    for (let i = 0; i < forms.length; i++) {
      if (next[i] !== -1 && next[i]! < from) next[i] = text.indexOf(starts[i]!, from);
      if (next[i] !== -1 && (at === -1 || next[i]! < at)) at = next[i]!;
    }
    if (at === -1) return out + text.slice(from);
    let end = at + MASKED_PREFIX_LENGTH;
    for (let i = 0; i < forms.length; i++) {
      if (next[i] !== at) continue;
      const form = forms[i]!;
      let reach = at + MASKED_PREFIX_LENGTH;
      while (reach - at < form.length && text[reach] === form[reach - at]) reach++;
      end = Math.max(end, reach);
    }
    out += `${text.slice(from, at)}${MASK}`;
    from = end;
  }
}

/** Whether a credential holds a character no HTTP header can carry (CR, LF and other controls). */
export function hasControlCharacter(value: string): boolean {
  return /[\0-\x1f\x7f]/.test(value);
}
