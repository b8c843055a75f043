// One measured download, in a fresh process so its peak RSS is its own. Prints one JSON line:
// {ms, maxRssMb, files, bytes}. GITHUB_API_URL must point at the fake before @actions/github loads.
//   helm-gate: the project's download (src/github/artifacts.ts: @actions/artifact downloadArtifact
//              with findBy, streamed to disk, digest checked, extracted tree checked and decoded);
//   in-memory: what the hand-written code did: the whole zip fetched into one Buffer, its digest
//              checked, then inflated entry by entry with inflateRawSync (test-support's reader).
import { createHash } from 'node:crypto'
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const [mode, buildDir, artifactJson, destination] = process.argv.slice(2)
const artifact = JSON.parse(artifactJson)
const load = file => import(pathToFileURL(path.join(buildDir, file)).href)
const repo = { owner: 'acme', repo: 'serving' }

const started = performance.now()
if (mode === 'helm-gate') {
  const { actionsArtifactStore } = await load('src/github/artifacts.js')
  await actionsArtifactStore().download(artifact, destination, { token: 'test-token', ...repo, runId: artifact.runId })
} else if (mode === 'in-memory') {
  const { extractZip } = await load('test-support/fake-github/zip-reader.js')
  const { decodeTree } = await load('src/github/artifact-paths.js')
  const response = await fetch(`${process.env.GITHUB_API_URL}/repos/${repo.owner}/${repo.repo}/actions/artifacts/${artifact.id}/zip`, {
    headers: { authorization: 'token test-token' }
  })
  if (!response.ok) throw new Error(`download answered ${response.status}`)
  const zip = Buffer.from(await response.arrayBuffer())
  if (`sha256:${createHash('sha256').update(zip).digest('hex')}` !== artifact.digest) throw new Error('digest mismatch')
  await extractZip(zip, destination)
  await decodeTree(destination)
} else {
  throw new Error(`unknown mode ${mode}`)
}
const ms = performance.now() - started

let files = 0
let bytes = 0
const walk = async dir => {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) await walk(full)
    else {
      files++
      bytes += (await stat(full)).size
    }
  }
}
await walk(destination)
process.stdout.write(`${JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, files, bytes })}\n`)
process.exit(0)
