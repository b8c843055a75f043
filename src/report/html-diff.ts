/// <reference lib="dom" />
/**
 * A changed answer's two outputs as text nodes with the characters that differ marked, for the
 * side-by-side view in report.html (docs/report.md). Bundled into the page with html-client.ts
 * (it imports nothing); the outputs are model text and go in only as text nodes and `<mark>`
 * elements built by the `el` the page gives it.
 */
type El = (tag: 'mark', attrs?: Record<string, string>, ...children: (Node | string | null)[]) => HTMLElement

/** The baseline's and the candidate's segments: common prefix and suffix plain, the middle marked by a character LCS. */
export function diffSegments(el: El, a: string, b: string): [Node[], Node[]] {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const midA = a.slice(start, endA)
  const midB = b.slice(start, endB)
  const mark = (text: string): Node => el('mark', {}, text)
  const text = (t: string): Node => document.createTextNode(t)
  // Character LCS of the differing middle when it is small; otherwise the whole middle is marked.
  if (midA.length * midB.length > 0 && midA.length * midB.length <= 250_000) {
    const n = midA.length
    const m = midB.length
    const table = new Uint16Array((n + 1) * (m + 1))
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i * (m + 1) + j] =
          midA[i] === midB[j] ? table[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1])
      }
    }
    const outA: Node[] = [text(a.slice(0, start))]
    const outB: Node[] = [text(b.slice(0, start))]
    let i = 0
    let j = 0
    let same = ''
    let onlyA = ''
    let onlyB = ''
    const flush = (): void => {
      if (onlyA) outA.push(mark(onlyA))
      if (onlyB) outB.push(mark(onlyB))
      onlyA = ''
      onlyB = ''
    }
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        flush()
        same += midA[i]
        i++
        j++
        continue
      }
      if (same) {
        outA.push(text(same))
        outB.push(text(same))
        same = ''
      }
      if (j >= m || (i < n && table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1])) onlyA += midA[i++]
      else onlyB += midB[j++]
    }
    flush()
    if (same) {
      outA.push(text(same))
      outB.push(text(same))
    }
    outA.push(text(a.slice(endA)))
    outB.push(text(b.slice(endB)))
    return [outA, outB]
  }
  return [
    [text(a.slice(0, start)), ...(midA ? [mark(midA)] : []), text(a.slice(endA))],
    [text(b.slice(0, start)), ...(midB ? [mark(midB)] : []), text(b.slice(endB))]
  ]
}
