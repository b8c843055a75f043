/**
 * Counted words, the one owner of the rule: "1 entry", "2 entries". Every message that states a
 * count goes through here, so a run of one instance never reads "1 instances".
 */
export function counted(n: number, one: string, many = `${one}s`, format: (n: number) => string = String): string {
  return `${format(n)} ${chosen(n, one, many)}`
}

/** The words that agree with a count stated elsewhere in the sentence ("so its score is", "so their scores are"). */
export function chosen(n: number, one: string, many: string): string {
  return n === 1 ? one : many
}

/**
 * The known words closest to a mistyped one, for "did you mean": at most `limit`, nearest first,
 * each within an edit distance of a third of the word's length (at least 2), or holding the word
 * whole (`exact_match` -> `exact_match_indicator`). Our own dozen lines rather than a dependency
 * in the bundled action: the lists are a few dozen metric names, checked once per run.
 */
export function closestWords(word: string, known: readonly string[], limit = 2): string[] {
  const reach = Math.max(2, Math.floor(word.length / 3))
  return [...new Set(known)]
    .map(candidate => ({ candidate, distance: editDistance(word.toLowerCase(), candidate.toLowerCase()) }))
    .filter(({ candidate, distance }) => distance <= reach || candidate.includes(word) || word.includes(candidate))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map(({ candidate }) => candidate)
}

/** Levenshtein distance: insertions, deletions and substitutions, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = row
  }
  return previous[b.length]
}
