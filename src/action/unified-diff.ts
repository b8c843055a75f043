/**
 * A unified diff of two small texts (the gate file before and after a pull request), for the PR
 * comment. Plain LCS: gate files are a few hundred lines at most.
 */
export function unifiedDiff(before: string, after: string, fromName: string, toName: string, context = 3): string {
  const a = splitLines(before)
  const b = splitLines(after)
  const ops = diffLines(a, b)
  const hunks: string[] = []
  let i = 0
  while (i < ops.length) {
    if (ops[i].kind === ' ') {
      i++
      continue
    }
    const start = Math.max(0, i - context)
    let end = i
    // Extend the hunk while changes are separated by at most 2 * context unchanged lines.
    while (end < ops.length) {
      if (ops[end].kind !== ' ') {
        end++
        continue
      }
      let run = end
      while (run < ops.length && ops[run].kind === ' ') run++
      if (run < ops.length && run - end <= 2 * context) end = run
      else {
        end = Math.min(ops.length, end + context)
        break
      }
    }
    const slice = ops.slice(start, end)
    const aStart = slice[0].aLine
    const bStart = slice[0].bLine
    const aCount = slice.filter(op => op.kind !== '+').length
    const bCount = slice.filter(op => op.kind !== '-').length
    hunks.push(`@@ -${aStart + (aCount ? 1 : 0)},${aCount} +${bStart + (bCount ? 1 : 0)},${bCount} @@`)
    for (const op of slice) hunks.push(`${op.kind}${op.text}`)
    i = end
  }
  if (hunks.length === 0) return ''
  return [`--- ${fromName}`, `+++ ${toName}`, ...hunks].join('\n')
}

interface Op {
  kind: ' ' | '-' | '+'
  text: string
  /** Lines of `a` and `b` before this one. */
  aLine: number
  bLine: number
}

function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

function diffLines(a: string[], b: string[]): Op[] {
  const n = a.length
  const m = b.length
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1])
    }
  }
  const ops: Op[] = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i], aLine: i, bLine: j })
      i++
      j++
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // Deletions before insertions, as diff(1) writes them.
      ops.push({ kind: '-', text: a[i], aLine: i, bLine: j })
      i++
    } else {
      ops.push({ kind: '+', text: b[j], aLine: i, bLine: j })
      j++
    }
  }
  return ops
}
