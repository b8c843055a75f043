/**
 * The job log as the runner folds it: `::group::<title>` … `::endgroup::`. Groups do not nest on
 * GitHub (an inner endgroup closes the outer group), so a nested or unclosed group is an error
 * here, not a structure.
 */
export interface LogGroup {
  title: string
  lines: string[]
}

export function logGroups(stdout: string): LogGroup[] {
  const groups: LogGroup[] = []
  let open: LogGroup | null = null
  for (const line of stdout.split('\n')) {
    if (line.startsWith('::group::')) {
      if (open) throw new Error(`group "${line.slice(9)}" opened inside "${open.title}"`)
      open = { title: line.slice(9), lines: [] }
      groups.push(open)
    } else if (line === '::endgroup::') {
      if (!open) throw new Error('::endgroup:: without an open group')
      open = null
    } else if (open) {
      open.lines.push(line)
    }
  }
  if (open) throw new Error(`group "${open.title}" is never closed`)
  return groups
}

/** The group titles without the `helm-gate: ` prefix, in order. */
export function phaseTitles(stdout: string): string[] {
  return logGroups(stdout)
    .map(group => group.title)
    .filter(title => title.startsWith('helm-gate: '))
    .map(title => title.slice('helm-gate: '.length))
}

export function groupLines(stdout: string, title: string): string[] {
  const found = logGroups(stdout).filter(group => group.title === `helm-gate: ${title}`)
  if (found.length !== 1) throw new Error(`expected one group "${title}", found ${found.length}`)
  return found[0].lines
}
