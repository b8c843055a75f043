/**
 * The identity rows of the report header that come from launching: the container image a
 * `docker run` side ran, by tag and digest. A tag (`:latest`, `:v0.11.0`) can be re-pushed; the
 * digest says exactly which engine build answered. The JSON keeps the full values.
 */
import type { ImageIdentity } from '../model/identity.js'
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
