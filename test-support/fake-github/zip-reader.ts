/**
 * Reads the artifacts the fake GitHub stored, for the tests' own inspection (the action streams
 * its downloads through @actions/artifact). Extracts a downloaded artifact zip. Written here rather than borrowed so that every entry name
 * is checked before anything touches the disk: an archived baseline is untrusted data, and an
 * entry such as `../../.github/workflows/x.yml` or `/etc/passwd` must never escape the
 * destination (zip slip). Supports what @actions/artifact produces: stored and deflated entries,
 * with or without data descriptors (sizes are read from the central directory).
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { inflateRawSync } from 'node:zlib'
import { InputError } from '../../src/errors.js'
import { safeEntryPath } from '../../src/github/extracted-tree.js'

const EOCD_SIGNATURE = 0x06054b50
const CENTRAL_SIGNATURE = 0x02014b50
const LOCAL_SIGNATURE = 0x04034b50

export interface ZipEntry {
  name: string
  method: number
  compressedSize: number
  size: number
  localHeaderOffset: number
  isDirectory: boolean
}

export interface ExtractLimits {
  /** Refuse archives that would expand beyond this (zip bombs). */
  maxTotalBytes: number
  maxEntries: number
}

const DEFAULT_LIMITS: ExtractLimits = { maxTotalBytes: 4 * 1024 ** 3, maxEntries: 200_000 }

export function listZipEntries(zip: Buffer, file = 'artifact.zip'): ZipEntry[] {
  const eocd = findEndOfCentralDirectory(zip, file)
  const count = zip.readUInt16LE(eocd + 10)
  let offset = zip.readUInt32LE(eocd + 16)
  if (count === 0xffff || offset === 0xffffffff) {
    throw new InputError('zip.zip64', 'ZIP64 archives are not supported', { file })
  }
  const entries: ZipEntry[] = []
  for (let i = 0; i < count; i++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL_SIGNATURE) {
      throw new InputError('zip.corrupt', 'the zip central directory is corrupt', { file, value: i })
    }
    const method = zip.readUInt16LE(offset + 10)
    const compressedSize = zip.readUInt32LE(offset + 20)
    const size = zip.readUInt32LE(offset + 24)
    const nameLength = zip.readUInt16LE(offset + 28)
    const extraLength = zip.readUInt16LE(offset + 30)
    const commentLength = zip.readUInt16LE(offset + 32)
    const localHeaderOffset = zip.readUInt32LE(offset + 42)
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength)
    entries.push({ name, method, compressedSize, size, localHeaderOffset, isDirectory: name.endsWith('/') })
    offset += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/** Extracts every entry; throws before writing anything if any entry is unsafe. */
export async function extractZip(
  zip: Buffer,
  destination: string,
  limits: ExtractLimits = DEFAULT_LIMITS,
  file = 'artifact.zip',
  /** Maps an entry name before the safety check (artifact-paths.ts decoding). */
  rename: (name: string) => string = name => name
): Promise<string[]> {
  const entries = listZipEntries(zip, file)
  if (entries.length > limits.maxEntries) {
    throw new InputError('zip.too_many', `the archive has more than ${limits.maxEntries} entries`, { file })
  }
  let total = 0
  const targets = entries.map(entry => {
    const target = safeEntryPath(destination, rename(entry.name))
    if (target === null) {
      throw new InputError('zip.unsafe_path', 'an archive entry would be written outside the destination', {
        file,
        field: 'entry',
        value: entry.name
      })
    }
    total += entry.size
    return target
  })
  if (total > limits.maxTotalBytes) {
    throw new InputError('zip.too_large', `the archive would expand to more than ${limits.maxTotalBytes} bytes`, {
      file,
      value: total
    })
  }
  const written: string[] = []
  for (const [i, entry] of entries.entries()) {
    const target = targets[i]
    if (entry.isDirectory) {
      await mkdir(target, { recursive: true })
      continue
    }
    const data = readEntry(zip, entry, file)
    await mkdir(path.dirname(target), { recursive: true })
    await writeFile(target, data)
    written.push(entry.name)
  }
  return written
}

function readEntry(zip: Buffer, entry: ZipEntry, file: string): Buffer {
  const at = entry.localHeaderOffset
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_SIGNATURE) {
    throw new InputError('zip.corrupt', 'a zip local header is corrupt', { file, value: entry.name })
  }
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28)
  const raw = zip.subarray(start, start + entry.compressedSize)
  let data: Buffer
  if (entry.method === 0) data = Buffer.from(raw)
  else if (entry.method === 8) data = inflateRawSync(raw, { maxOutputLength: Math.max(entry.size, 1) })
  else throw new InputError('zip.method', `unsupported zip compression method ${entry.method}`, { file, value: entry.name })
  if (data.length !== entry.size) {
    throw new InputError('zip.corrupt', 'a zip entry does not have its declared size', { file, value: entry.name })
  }
  return data
}

function findEndOfCentralDirectory(zip: Buffer, file: string): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD_SIGNATURE) return i
  }
  throw new InputError('zip.corrupt', 'not a zip archive (no end of central directory)', { file })
}
