/**
 * Structural checks on rendered markdown, written the way a CommonMark parser reads the text:
 * fences first (inside a fence nothing else counts), then `<details>` lines and table rows.
 */

export interface FenceBlock {
  fence: string
  content: string[]
}

export interface MarkdownStructure {
  /** Fenced code blocks, with the fence that opened each. */
  fences: FenceBlock[]
  /** A fence still open at the end of the text. */
  unclosedFence: boolean
  detailsOpened: number
  detailsClosed: number
  /** Lines outside fences (where markdown and HTML are live). */
  liveLines: string[]
  /** The live lines with inline code spans removed: what GitHub parses as markdown and HTML. */
  liveText: string
}

/** Inline code spans (CommonMark: a backtick run closed by a run of the same length). */
export function withoutCodeSpans(line: string): string {
  return line.replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '')
}

export function structureOf(markdown: string): MarkdownStructure {
  const result: MarkdownStructure = {
    fences: [],
    unclosedFence: false,
    detailsOpened: 0,
    detailsClosed: 0,
    liveLines: [],
    liveText: ''
  }
  let open: FenceBlock | null = null
  for (const line of markdown.split('\n')) {
    if (open) {
      if (new RegExp(`^ {0,3}${open.fence}\`*\\s*$`).test(line)) open = null
      else open.content.push(line)
      continue
    }
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (opening) {
      open = { fence: opening[1], content: [] }
      result.fences.push(open)
      continue
    }
    result.liveLines.push(line)
    const markup = withoutCodeSpans(line)
    result.detailsOpened += (markup.match(/<details\b/gi) ?? []).length
    result.detailsClosed += (markup.match(/<\/details\s*>/gi) ?? []).length
  }
  result.unclosedFence = open !== null
  result.liveText = result.liveLines.map(withoutCodeSpans).join('\n')
  return result
}

/** Cell separators in a GFM table row: a `|` not escaped with a backslash. */
export function cellSeparators(row: string): number {
  let count = 0
  for (let i = 0; i < row.length; i += 1) if (row[i] === '|' && row[i - 1] !== '\\') count += 1
  return count
}

/** Table rows (lines that start with `|`) outside fences, grouped into tables. */
export function tablesOf(markdown: string): string[][] {
  const tables: string[][] = []
  let current: string[] | null = null
  for (const line of structureOf(markdown).liveLines) {
    if (line.startsWith('|')) {
      if (!current) tables.push((current = []))
      current.push(line)
    } else current = null
  }
  return tables
}

/** The comparisons table (its header starts with the verdict column). */
export function comparisonsTableOf(markdown: string): string[] {
  const table = tablesOf(markdown).find(t => t[0].startsWith('| Verdict |'))
  if (!table) throw new Error('no comparisons table')
  return table
}
