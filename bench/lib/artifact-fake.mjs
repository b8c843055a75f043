// The fake GitHub (test-support/fake-github, compiled by bench/artifact-download.mjs) in a process
// of its own, so the artifact it holds in memory does not count against the downloader measured.
// Seeds one artifact from the zip file given, as another workflow run's (an archived baseline),
// prints {url, id, name, digest, runId} as one JSON line and serves until stdin closes.
import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'

const [serverModule, zipFile] = process.argv.slice(2)
const { FakeGitHub } = await import(pathToFileURL(serverModule).href)
const fake = await new FakeGitHub().start()
const record = fake.seedArtifact({ name: 'helm-gate-baseline-bench', zip: await readFile(zipFile), runId: 500 })
process.stdout.write(`${JSON.stringify({ url: fake.url, id: record.id, name: record.name, digest: record.digest, runId: record.runId })}\n`)
process.stdin.resume()
process.stdin.on('end', async () => {
  if (fake.violations.length > 0) process.stderr.write(`fake GitHub violations:\n${fake.violations.join('\n')}\n`)
  await fake.stop()
  process.exit(fake.violations.length > 0 ? 1 : 0)
})
