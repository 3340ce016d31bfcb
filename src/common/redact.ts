/**
 * Redaction of secrets in statement text: the one function every place that stores or shows a statement
 * (query profiles, the audit log, error messages) passes the text through, so a password typed in
 * `CREATE USER ... IDENTIFIED BY 'pw'`, `ALTER USER ... IDENTIFIED BY 'pw'`, `SET PASSWORD [FOR u] =
 * PASSWORD('pw')` / `= 'hash'` or a `"...password..." = '...'` / `"...secret..." = '...'` property is
 * never kept. The literal is replaced by `'*XXX'`, as Doris prints it (CreateUserStmt.toSql,
 * SetPassVar.toSql).
 *
 * Text-based on purpose: it must also work on text that does not parse (a syntax error's message quotes
 * the statement), on statements nested in a PREPARE literal (`''pw''`), and on a literal cut short (the
 * rest of the text is redacted). Pure and cheap when the text holds none of the trigger words.
 */

/** What replaces a secret literal (its quotes are kept). */
export const REDACTED = '*XXX';

/**
 * Where a secret literal may follow: the match ends just before the literal's opening quote. Repetitions
 * are bounded so hostile text (megabytes of word characters, many SET PASSWORD without `=`) stays linear.
 */
const USER_PART = String.raw`(?:'[^']{0,300}'|"[^"]{0,300}"|\`[^\`]{0,300}\`|[\w$%.-]{1,300})`;
const SECRET_PREFIX = new RegExp(
  [
    String.raw`\bIDENTIFIED\s+BY\s+(?:PASSWORD\s+)?(?=['"])`,
    String.raw`\bPASSWORD\s*\(\s*(?=['"])`,
    String.raw`\bSET\s+PASSWORD\s*(?:FOR\s+${USER_PART}(?:\s*@\s*${USER_PART})?\s*)?=\s*(?=['"])`,
    String.raw`['"\`][\w.-]{0,64}(?:password|secret|passwd)[\w.-]{0,64}['"\`]\s*=\s*(?=['"])`,
  ].join('|'),
  'gi',
);

const TRIGGER = /identified|password|secret|passwd/i;

/** End (exclusive) of the quoted literal starting at `start`, and whether it is a nested `''...''` one. */
function literalEnd(text: string, start: number): { end: number; nested: boolean } {
  const quote = text[start];
  // A statement inside a string literal doubles its quotes: ''pw'' (not the empty literal '').
  if (text[start + 1] === quote && start + 2 < text.length && !/[\s,;)]/.test(text[start + 2]) && text[start + 2] !== quote) {
    const close = text.indexOf(quote + quote, start + 2);
    return { end: close < 0 ? text.length : close + 2, nested: true };
  }
  for (let pos = start + 1; pos < text.length; pos++) {
    const ch = text[pos];
    if (ch === '\\') pos++;
    else if (ch === quote) {
      if (text[pos + 1] === quote) pos++;
      else return { end: pos + 1, nested: false };
    }
  }
  return { end: text.length, nested: false };
}

/** The secret literals of `text`: [start, end) spans, each starting at a quote. */
function secretSpans(text: string): { start: number; end: number; nested: boolean }[] {
  const spans: { start: number; end: number; nested: boolean }[] = [];
  if (!TRIGGER.test(text)) return spans;
  const prefix = new RegExp(SECRET_PREFIX);
  let match: RegExpExecArray | null;
  while ((match = prefix.exec(text)) !== null) {
    const start = match.index + match[0].length;
    const span = { start, ...literalEnd(text, start) };
    spans.push(span);
    prefix.lastIndex = span.end;
  }
  return spans;
}

/** The secret values (literal contents, unquoted) of a statement. */
function secretValues(sql: string): string[] {
  return secretSpans(sql).map(({ start, end, nested }) => {
    const inner = sql.slice(start + (nested ? 2 : 1), end - (nested ? 2 : 1));
    return inner;
  });
}

/**
 * `text` with every secret literal replaced by `'*XXX'`. When `source` (the statement `text` talks
 * about, e.g. for an error message) is given, the secret values found in it are also blanked wherever
 * they appear in `text` (values shorter than 4 characters only where the patterns find them, so a short
 * password does not garble the message).
 */
export function redactSecrets(text: string, source?: string): string {
  let out = text;
  const spans = secretSpans(text);
  for (let idx = spans.length - 1; idx >= 0; idx--) {
    const { start, end, nested } = spans[idx];
    const quote = text[start].repeat(nested ? 2 : 1);
    out = out.slice(0, start) + quote + REDACTED + quote + out.slice(end);
  }
  if (source !== undefined && source !== text) {
    for (const value of secretValues(source)) {
      if (value.length >= 4) out = out.split(value).join(REDACTED);
    }
  }
  return out;
}
