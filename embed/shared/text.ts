// Text helpers shared by the embed, the widget and the server's e-mails: placeholders and plural forms.

/** Fills `{name}` placeholders; unknown ones stay visible. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A text's plural forms by CLDR category; `other` is always there (Croatian also has `few`, French `many`, …). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** The form for `n` in the language of `rules` (n === 1 is not enough: "2 recenzije" but "5 recenzija"). */
export function pluralOf(forms: PluralForms, rules: Intl.PluralRules, n: number): string {
  return forms[rules.select(n)] ?? forms.other;
}
