/**
 * `run --out DIR` writes report.json, report.md, manifest.json, logs/ and one folder per side.
 * A folder that already holds anything would be partly overwritten and partly mixed with the new
 * run, so only a new or empty folder is accepted; the refusal names what is there, and says when
 * it is an earlier helm-gate output (which must not be overwritten either: it is evidence).
 */
import { counted } from '../words.js'
import { readdir } from 'node:fs/promises'
import { UsageError } from '../errors.js'

/** Files that only a helm-gate run writes at the top of its output folder. */
const OWN_MARKERS = ['run-manifest.json', 'manifest.json']
const SHOWN = 6

export async function assertFreshOutputFolder(dir: string): Promise<void> {
  let entries: { name: string; isDirectory(): boolean }[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new UsageError('usage.out_not_folder', `--out ${dir} is a file, not a folder`, { field: '--out', value: dir })
    }
    throw error
  }
  if (entries.length === 0) return
  const names = entries.map(entry => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort()
  const shown = names.length > SHOWN ? `${names.slice(0, SHOWN).join(', ')} and ${names.length - SHOWN} more` : names.join(', ')
  const own = names.some(name => OWN_MARKERS.includes(name))
  throw new UsageError(
    'usage.out_not_empty',
    `--out ${dir} is not empty: it holds ${own ? 'an earlier helm-gate output' : counted(names.length, 'entry', 'entries')} (${shown}); give a new or empty folder`,
    { field: '--out', value: dir }
  )
}
