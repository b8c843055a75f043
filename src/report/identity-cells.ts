/**
 * The identity rows of the report header that come from launching: the container image a
 * `docker run` side ran, by tag and digest. A tag (`:latest`, `:v0.11.0`) can be re-pushed; the
 * digest says exactly which engine build answered. The JSON keeps the full values. And the
 * weights file a side was started with (`--model FILE`), by content.
 */
import type { ImageIdentity, SideIdentity } from '../model/side-identity.js'
import { codeSpan, escapeInline } from './escape.js'

/** Digest shown in a table: the algorithm and 12 hex digits, like docker's short ids. */
export function shortDigest(digest: string): string {
  const [algorithm, hex] = digest.includes(':') ? digest.split(':', 2) : ['', digest]
  return `${algorithm ? `${algorithm}:` : ''}${hex.slice(0, 12)}`
}

/** The markdown cell of the Image row; empty when the side ran no image. */
export function imageCell(image: ImageIdentity | null | undefined): string {
  if (!image) return ''
  const parts = [codeSpan(image.name, { maxLength: 80, inTable: true })]
  if (image.digest) parts.push(`digest ${codeSpan(shortDigest(image.digest), { inTable: true })}`)
  else if (image.id) parts.push(`image id ${codeSpan(shortDigest(image.id), { inTable: true })} (no registry digest)`)
  else parts.push(`digest unknown${image.error ? ` (${escapeInline(image.error, 80)})` : ''}`)
  return parts.join(' · ')
}

/** The markdown cell of the Weights row: "`model-Q4_0.gguf` · sha256 `587efc1344e6`"; empty when unknown. */
export function weightsCell(weights: SideIdentity['weights']): string {
  if (!weights) return ''
  const name = weights.file.split('/').pop() || weights.file
  const parts = [codeSpan(name, { maxLength: 60, inTable: true })]
  if (weights.sha256) parts.push(`sha256 ${codeSpan(weights.sha256.slice(0, 12), { inTable: true })}`)
  else if (weights.error) parts.push(escapeInline(weights.error, 60))
  return parts.join(' · ')
}
