/**
 * GitHub refuses artifact file paths containing `" : < > | * ? \r \n` (NTFS limits), but HELM
 * names run directories like `simple_mcqa:model=org_model`. Paths are therefore uploaded with
 * those characters percent-encoded (plus `\`, which the service treats as a separator, and `%`
 * itself, so the mapping is reversible) and decoded again after download.
 */
import { readdir, rename } from 'node:fs/promises'
import path from 'node:path'

const ENCODE = /[":<>|*?\r\n\\%]/g
const DECODE = /%(22|3A|3C|3E|7C|2A|3F|0D|0A|5C|25)/g

export function encodeArtifactSegment(segment: string): string {
  return segment.replace(ENCODE, ch => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
}

export function decodeArtifactSegment(segment: string): string {
  return segment.replace(DECODE, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** Encodes each segment of a `/`-separated relative path. */
export function encodeArtifactPath(relative: string): string {
  return relative.split('/').map(encodeArtifactSegment).join('/')
}

export function decodeArtifactPath(relative: string): string {
  return relative.split('/').map(decodeArtifactSegment).join('/')
}

/**
 * Renames every entry under `dir` back to its decoded name (after @actions/artifact unpacked an
 * artifact). A decoded name that would contain a separator is left encoded.
 */
export async function decodeTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    let name = entry.name
    const decoded = decodeArtifactSegment(name)
    if (decoded !== name && !decoded.includes('/') && !decoded.includes('\\') && decoded !== '..' && decoded !== '.') {
      await rename(path.join(dir, name), path.join(dir, decoded))
      name = decoded
    }
    if (entry.isDirectory()) await decodeTree(path.join(dir, name))
  }
}
