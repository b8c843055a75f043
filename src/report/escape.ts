/**
 * Escaping of untrusted text (model outputs, prompts, dataset text, run names, file paths) for
 * GitHub-flavoured markdown. Every renderer that puts such text into markdown goes through one
 * of the functions here, chosen by the context the text lands in:
 *
 *   - `escapeInline`   markdown text: table cells, list items, paragraphs;
 *   - `escapeHtmlText` inside a raw HTML block (for example `<summary>`), where markdown is not
 *                      parsed, so backslash escapes would show and only entities work;
 *   - `codeSpan`       an inline code span (optionally inside a table cell);
 *   - `codeBlock`      a fenced code block.
 *
 * GitHub turns `@user`, `@org/team`, `#123`, `GH-123`, bare URLs and e-mail addresses into links
 * or notifications by looking at the *text nodes* after markdown and entities are decoded, so a
 * backslash or `&#64;` does not stop a mention. A zero-width joiner right after the trigger
 * character does: the mention and autolink patterns no longer match, and the reader still sees
 * the same text. Code spans and blocks are exempt from mentions and autolinks on GitHub, so
 * their text is left as written: a `file@sha` or an e-mail copied from code must be the real
 * characters, not ones with an invisible joiner that breaks the copy. (The one exception is an
 * HTML comment opener, see neutraliseCommentOpeners.)
 */

const ZWJ = '\u200D'

/**
 * C0 and C1 control characters except tab and newline (carriage returns are normalised first).
 * DEL is included: terminals and some markdown viewers treat it specially.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g
/**
 * Invisible characters that change how text is displayed or compared: bidirectional overrides
 * (a "Trojan source" reordering can make an escaped string look like something else), zero-width
 * spaces, non-joiners and word joiners that could hide inside a word, the byte-order mark, and
 * Unicode tag characters (used to smuggle invisible instructions into text). The zero-width
 * joiner itself is kept: emoji sequences need it and it is harmless.
 */
const INVISIBLE = /[\u061C\u180E\u200B\u200C\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/gu
/** A surrogate half without its partner cannot be encoded as UTF-8 (GitHub's API rejects it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * The base cleaning every context shares: line endings normalised to `\n` (including the
 * Unicode line and paragraph separators), control and invisible characters removed, lone
 * surrogates replaced. Tabs and newlines are kept; callers decide what they become.
 */
export function sanitizeText(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(CONTROL, '')
    .replace(INVISIBLE, '')
    .replace(LONE_SURROGATE, '\uFFFD')
}

/**
 * Untrusted texts can be megabytes; when only `maxLength` characters will be shown, drop the
 * rest before the (linear, but not free) cleaning. The slack covers characters cleaning removes.
 */
function roughCut(text: string, maxLength: number | undefined): string {
  if (maxLength === undefined) return text
  const slack = maxLength * 2 + 64
  return text.length > slack ? text.slice(0, slack) : text
}

/** Collapse every run of whitespace that contains a line break (and tabs) to one visible mark. */
function toSingleLine(text: string): string {
  return text.replace(/[ \t]*\n[\s]*/g, ' ↵ ').replace(/\t/g, ' ')
}

/**
 * Break what GitHub would turn into a notification or a link, by inserting a zero-width joiner:
 * `@user`, `@org/team` and e-mail addresses (after every `@`), issue references `#123` and
 * `GH-123`, and extended autolinks (`http://`, `https://`, `ftp://`, `www.`).
 */
export function neutraliseReferences(text: string): string {
  return text
    .replace(/@/g, `@${ZWJ}`)
    .replace(/#(?=\d)/g, `#${ZWJ}`)
    .replace(/\b(GH)-(?=\d)/gi, `$1${ZWJ}-`)
    .replace(/:\/\//g, `:${ZWJ}//`)
    .replace(/\b(www)\./gi, `$1${ZWJ}.`)
}

/**
 * ASCII punctuation with a meaning somewhere in GitHub-flavoured markdown: emphasis, code,
 * links and images, headings, strikethrough, table cells, math (`$`), footnotes and the escape
 * character itself. CommonMark allows a backslash before any ASCII punctuation, so escaping
 * more than strictly needed is always safe.
 */
const MARKDOWN_PUNCTUATION = /[\\`*_~[\](){}#!|$^]/g

function escapeHtmlEntities(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * Untrusted text as markdown text on one line (a table cell, a list item, a sentence): no
 * newline, no HTML, no emphasis, link, image, code or cell boundary survives, and no mention or
 * autolink fires. `maxLength` (in characters of the original text) truncates first, with `…`.
 */
export function escapeInline(text: string, maxLength?: number): string {
  // Trimmed: four leading spaces at the start of a paragraph would open an indented code block.
  let clean = toSingleLine(sanitizeText(roughCut(text, maxLength)).trim())
  if (maxLength !== undefined) clean = truncateText(clean, maxLength)
  const escaped = escapeHtmlEntities(neutraliseReferences(clean)).replace(MARKDOWN_PUNCTUATION, '\\$&')
  // Only the start of the text can start a line: block markers there (a list item, a setext
  // underline) would restructure the list item or paragraph the text is placed in.
  return escaped.replace(/^([-+=])/, '\\$1').replace(/^(\d+)\./, '$1\\.')
}

/**
 * Untrusted text inside a raw HTML block such as `<summary>…</summary>`. Markdown is not parsed
 * there, so backslashes would show and only entities escape; mentions still fire in HTML text,
 * so they are neutralised too. Markdown punctuation also becomes numeric entities: they display
 * the same in HTML and are inert should a renderer parse the line as markdown after all.
 */
export function escapeHtmlText(text: string, maxLength?: number): string {
  let clean = toSingleLine(sanitizeText(roughCut(text, maxLength)))
  if (maxLength !== undefined) clean = truncateText(clean, maxLength)
  return escapeHtmlEntities(neutraliseReferences(clean))
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(MARKDOWN_PUNCTUATION, ch => `&#${ch.charCodeAt(0)};`)
}

/**
 * `<!--` gets a zero-width joiner after `<!`: the sticky comment is found by its marker, an HTML
 * comment, and a body must hold that marker exactly once. Model output quoting the marker (or
 * any HTML comment opener) inside a code span or block would otherwise carry it verbatim; outside
 * code, `<` is already an entity.
 */
export function neutraliseCommentOpeners(text: string): string {
  return text.replace(/<!--/g, `<!${ZWJ}--`)
}

function longestBacktickRun(text: string): number {
  let longest = 0
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length)
  return longest
}

/**
 * Untrusted text as an inline code span on one line. The delimiter is one backtick longer than
 * the longest backtick run inside, so the content cannot end the span. Inside a table cell a `|`
 * must still be escaped even in code (GFM splits cells before it parses inline code).
 */
export function codeSpan(text: string, options: { inTable?: boolean; maxLength?: number } = {}): string {
  let clean = toSingleLine(sanitizeText(roughCut(text, options.maxLength)))
  if (options.maxLength !== undefined) clean = truncateText(clean, options.maxLength)
  if (clean.length === 0) return ''
  clean = neutraliseCommentOpeners(clean)
  if (options.inTable) clean = clean.replace(/\|/g, '\\|')
  const fence = '`'.repeat(longestBacktickRun(clean) + 1)
  // A span that starts or ends with a backtick (or a space) needs padding; CommonMark strips
  // exactly one space on each side when both are present.
  const pad = /^[`\s]|[`\s]$/.test(clean) ? ' ' : ''
  return `${fence}${pad}${clean}${pad}${fence}`
}

/**
 * Untrusted text as a fenced code block. The fence is longer than any backtick run in the text,
 * so no line of the content can close it; tilde lines cannot close a backtick fence. Inside a
 * fence there is no HTML, no mention and no autolink, so `</details>` or `<!--` stay literal.
 * `info` is the (trusted) language tag.
 */
export function codeBlock(text: string, info = ''): string {
  const clean = neutraliseCommentOpeners(sanitizeText(text).replace(/\n+$/, ''))
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(clean) + 1))
  return `${fence}${info}\n${clean}\n${fence}`
}

/**
 * Shorten to at most `maxLength` UTF-16 units including the `…`, never splitting a surrogate
 * pair.
 */
export function truncateText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text
  if (maxLength <= 0) return ''
  let cut = maxLength - 1
  if (cut > 0 && /[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut -= 1
  return `${text.slice(0, cut)}…`
}

/**
 * The last `maxLength` units of a text, prefixed with `…`. HELM prompts carry the in-context
 * examples first and the question last, so the tail is the part that tells instances apart.
 */
export function tailText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text
  if (maxLength <= 0) return ''
  let start = text.length - (maxLength - 1)
  if (/[\uDC00-\uDFFF]/.test(text.charAt(start))) start += 1
  return `…${text.slice(start)}`
}

/**
 * Untrusted text for a terminal: every control character (including ESC, so no ANSI sequence
 * can be injected) and every invisible formatting character is shown as a visible escape.
 */
export function escapeTerminal(text: string): string {
  return text
    .replace(/[\u0000-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2028\u2029\u2060-\u2064\u2066-\u2069\uFEFF]/g, ch => {
      if (ch === '\n') return '\\n'
      if (ch === '\r') return '\\r'
      if (ch === '\t') return '\\t'
      const code = ch.charCodeAt(0)
      return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
    })
    .replace(LONE_SURROGATE, '\uFFFD')
}
