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

/** An image name in the header holds at most this many characters (the JSON keeps it whole). */
export const IMAGE_NAME_LENGTH = 40

/**
 * An image name cut in the middle to `max` characters: the tag (after the last `:` of the last
 * path segment) is what tells two builds apart, so it stays whole when it fits in half the room,
 * and the registry path gives way. A tag longer than that keeps its end.
 */
export function middleCutImageName(name: string, max = IMAGE_NAME_LENGTH): string {
  if (name.length <= max) return name
  const colon = name.lastIndexOf(':')
  const tagged = colon > name.lastIndexOf('/')
  const half = Math.floor(max / 2)
  const tail = tagged && name.length - colon <= half ? name.slice(colon) : name.slice(name.length - half)
  return `${name.slice(0, max - 1 - tail.length)}…${tail}`
}

/** The markdown cell of the Image row; empty when the side ran no image. */
export function imageCell(image: ImageIdentity | null | undefined): string {
  if (!image) return ''
  const parts = [codeSpan(middleCutImageName(image.name), { maxLength: IMAGE_NAME_LENGTH, inTable: true })]
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
