/**
 * scripts/real-engine/content_sums.py: what check-trained.sh compares between the committed model
 * and one trained again. Weights and tokenizer byte for byte; the JSON configs by content without
 * the transformers_version their writer stamps in, so moving the transformers pin does not force a
 * retraining, while a changed weight or config value still fails.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const script = join(root, 'scripts', 'real-engine', 'content_sums.py')
const committed = join(root, 'examples', 'real-cpu', 'trained-model')
const scratch: string[] = []

afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function sums(folder: string): Map<string, string> {
  const r = spawnSync('python3', [script, folder], { encoding: 'utf8' })
  expect([r.status, r.stderr]).toEqual([0, ''])
  return new Map(
    r.stdout
      .trim()
      .split('\n')
      .map(line => line.split('  ', 2).reverse() as [string, string])
  )
}

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-sums-'))
  scratch.push(dir)
  cpSync(committed, dir, { recursive: true })
  return dir
}

function changedFiles(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter(k => a.get(k) !== b.get(k)).sort()
}

describe('content_sums.py', () => {
  it('lists every file but SHA256SUMS, KEY and training.json', () => {
    const listed = [...sums(committed).keys()].sort()
    expect(listed).toContain('hf/model.safetensors')
    expect(listed).toContain('hf/tokenizer.model')
    expect(listed).toContain('hf/config.json')
    expect(listed.filter(name => ['SHA256SUMS', 'KEY', 'training.json'].includes(name))).toEqual([])
  })

  it('hashes weights and tokenizer byte for byte, as SHA256SUMS does', () => {
    const recorded = new Map(
      readFileSync(join(committed, 'SHA256SUMS'), 'utf8')
        .trim()
        .split('\n')
        .map(line => line.split('  ', 2).reverse() as [string, string])
    )
    const now = sums(committed)
    for (const name of ['hf/model.safetensors', 'hf/tokenizer.model', 'hf/tokenizer.json', 'addition.jsonl'])
      expect(now.get(name)).toBe(recorded.get(name))
  })

  it('ignores a newer writer stamp and the layout of a config, nothing else', () => {
    const dir = copy()
    const configPath = join(dir, 'hf', 'config.json')
    // As a newer transformers writes it: another version stamp, another indentation.
    const text = readFileSync(configPath, 'utf8')
    const restamped = text.replace(/"transformers_version": "[^"]+"/, '"transformers_version": "9.9.9"').replaceAll('\n  ', '\n    ')
    expect(restamped).not.toBe(text)
    writeFileSync(configPath, restamped)
    expect(changedFiles(sums(committed), sums(dir))).toEqual([])

    writeFileSync(
      configPath,
      restamped.replace(/"vocab_size": (\d+)/, (_, n: string) => `"vocab_size": ${Number(n) + 1}`)
    )
    expect(changedFiles(sums(committed), sums(dir))).toEqual(['hf/config.json'])
  })

  it('fails a changed weight and a reformatted tokenizer', () => {
    const dir = copy()
    const weights = join(dir, 'hf', 'model.safetensors')
    const bytes = readFileSync(weights)
    bytes[bytes.length - 1] ^= 1
    writeFileSync(weights, bytes)
    const tokenizer = join(dir, 'hf', 'tokenizer.json')
    writeFileSync(tokenizer, JSON.stringify(JSON.parse(readFileSync(tokenizer, 'utf8'))))
    expect(changedFiles(sums(committed), sums(dir))).toEqual(['hf/model.safetensors', 'hf/tokenizer.json'])
  })
})
