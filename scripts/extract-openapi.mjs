#!/usr/bin/env node
// Extracts the few GitHub REST operations helm-gate uses from @octokit/openapi into a small
// committed fixture (test-support/fake-github/openapi-subset.json). The full package is 385 MB
// unpacked, far too big to keep as a devDependency, so it is fetched with `npm pack` into a temp
// directory, only `generated/api.github.com.json` is unpacked, and the temp directory is removed.
//
// Usage: node scripts/extract-openapi.mjs   (needs access to the npm registry)
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const PACKAGE = '@octokit/openapi@23.0.2'
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const target = path.join(root, 'test-support/fake-github/openapi-subset.json')

/** [method, path template] of every REST call the action and @actions/artifact's findBy make. */
const OPERATIONS = [
  ['get', '/repos/{owner}/{repo}'],
  ['get', '/repos/{owner}/{repo}/actions/artifacts'],
  ['get', '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}'],
  ['get', '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}'],
  ['get', '/repos/{owner}/{repo}/actions/runs/{run_id}'],
  ['get', '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['post', '/repos/{owner}/{repo}/check-runs'],
  ['patch', '/repos/{owner}/{repo}/check-runs/{check_run_id}'],
  ['get', '/repos/{owner}/{repo}/contents/{path}'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['get', '/user']
]

function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', chunk => (out += chunk))
    child.on('error', reject)
    child.on('close', code => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} exited ${code}`))))
  })
}

/** Every `#/components/...` reference reachable from `node`, followed transitively. */
function collectRefs(spec, node, seen) {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(spec, item, seen)
    return
  }
  if (!node || typeof node !== 'object') return
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/')) {
      if (seen.has(value)) continue
      seen.add(value)
      collectRefs(spec, resolvePointer(spec, value), seen)
    } else {
      collectRefs(spec, value, seen)
    }
  }
}

function resolvePointer(spec, ref) {
  return ref
    .slice(2)
    .split('/')
    .map(part => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, part) => node?.[part], spec)
}

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'openapi-'))
  try {
    await run('npm', ['pack', PACKAGE, '--pack-destination', work, '--silent'], work)
    const tarball = (await readdir(work)).find(name => name.endsWith('.tgz'))
    if (!tarball) throw new Error('npm pack produced no tarball')
    await run('tar', ['-xzf', tarball, 'package/generated/api.github.com.json'], work)
    const spec = JSON.parse(await readFile(path.join(work, 'package/generated/api.github.com.json'), 'utf8'))

    const paths = {}
    for (const [method, template] of OPERATIONS) {
      const operation = spec.paths[template]?.[method]
      if (!operation) throw new Error(`${method.toUpperCase()} ${template} is not in ${PACKAGE}`)
      paths[template] ??= {}
      paths[template][method] = operation
      if (spec.paths[template].parameters) paths[template].parameters = spec.paths[template].parameters
    }
    const refs = new Set()
    collectRefs(spec, paths, refs)
    const components = {}
    for (const ref of [...refs].sort()) {
      const [, , section, name] = ref.split('/')
      components[section] ??= {}
      components[section][name] = resolvePointer(spec, ref)
    }
    const subset = {
      openapi: spec.openapi,
      info: { ...spec.info, description: `Subset of ${PACKAGE} extracted by scripts/extract-openapi.mjs` },
      paths,
      components
    }
    await writeFile(target, `${JSON.stringify(subset, null, 1)}\n`)
    console.log(`wrote ${OPERATIONS.length} operations and ${refs.size} components to ${target}`)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

await main()
