/**
 * A local GitHub for integration tests, on 127.0.0.1: the REST endpoints helm-gate uses, the
 * artifact service @actions/artifact v6 talks to (Twirp JSON + an Azure-style blob store) and a
 * request log. Every REST request is validated against GitHub's OpenAPI description; GitHub's
 * size limits that the description does not encode (comment bodies) are enforced here.
 * Protocol details: docs/testing.md "The fake GitHub".
 */
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { OpenApiValidator } from './openapi.js'

export const COMMENT_LIMIT = 65536
export const CHECK_OUTPUT_LIMIT = 65535
const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService/'
const BLOB_PREFIX = '/devstoreaccount1/actions-results/'

export interface RepoState {
  owner: string
  name: string
  id: number
  defaultBranch: string
}

export interface ArtifactRecord {
  id: number
  name: string
  runId: number
  runBackendId: string
  jobBackendId: string
  bytes: Buffer | null
  blocks: Map<string, Buffer>
  finalized: boolean
  createdAt: string
  expiresAt: string | null
  expired: boolean
  /** `sha256:<hex>` once finalized or seeded. */
  digest: string | null
  headBranch: string
  headSha: string
  repositoryId: number
  headRepositoryId: number
}

export interface WorkflowRunRecord {
  id: number
  event: string
  status: string
  conclusion: string | null
  head_branch: string
  head_sha: string
  repositoryId: number
  headRepositoryId: number
}

export interface CommentRecord {
  id: number
  issue: number
  body: string
  login: string
  type: 'Bot' | 'User'
  createdAt: string
}

export interface CheckRunRecord {
  id: number
  body: Record<string, any>
}

export interface RecordedRequest {
  method: string
  path: string
  query: string
  body: unknown
  status: number
  authorization: string | null
}

export interface InjectedFailure {
  method: string
  path: RegExp
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** How many requests fail; Infinity by default. */
  times?: number
}

export interface SeedArtifact {
  name: string
  zip: Buffer
  runId: number
  createdAt?: string
  expiresAt?: string
  expired?: boolean
  headBranch?: string
  headSha?: string
  repositoryId?: number
  headRepositoryId?: number
  /** Override the listed digest (to simulate a corrupted download). */
  digest?: string
}

export class FakeGitHub {
  readonly repo: RepoState
  readonly requests: RecordedRequest[] = []
  /** REST requests that the OpenAPI description or GitHub's limits reject. Tests assert it stays empty. */
  readonly violations: string[] = []
  readonly artifacts: ArtifactRecord[] = []
  readonly comments: CommentRecord[] = []
  readonly checkRuns: CheckRunRecord[] = []
  readonly runs = new Map<number, WorkflowRunRecord>()
  readonly pulls = new Map<number, { number: number; head: { sha: string; ref: string }; base: { sha: string; ref: string } }>()
  /** ref → path → file text, for the contents API. */
  readonly contents = new Map<string, Map<string, string>>()
  readonly failures: InjectedFailure[] = []
  /** The workflow token is read-only (fork or Dependabot PR): writes answer 403. */
  readOnly = false
  /** Login of the token's bot identity when it writes comments. */
  botLogin = 'github-actions[bot]'
  /** The personal access token `pat-token` belongs to this user (GET /user answers it). */
  patLogin = 'octocat'

  private server: Server | null = null
  private nextId = 1000
  private readonly validator = new OpenApiValidator()
  private readonly tokens = new Set<string>()

  constructor(repo: Partial<RepoState> = {}) {
    this.repo = { owner: 'acme', name: 'serving', id: 4242, defaultBranch: 'main', ...repo }
  }

  get url(): string {
    if (!this.server) throw new Error('the fake GitHub is not listening')
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch(error => {
        this.violations.push(`fake crashed on ${req.method} ${req.url}: ${(error as Error).stack}`)
        if (!res.headersSent) res.writeHead(500)
        res.end()
      })
    })
    await new Promise<void>(resolve => this.server!.listen(0, '127.0.0.1', resolve))
    return this
  }

  async stop(): Promise<void> {
    const server = this.server
    this.server = null
    if (!server) return
    server.closeAllConnections()
    await new Promise<void>(resolve => server.close(() => resolve()))
  }

  /**
   * An unsigned JWT like the runner's ACTIONS_RUNTIME_TOKEN: @actions/artifact decodes (never
   * verifies) it and copies the backend ids of its `Actions.Results` scope into every request.
   */
  runtimeToken(runId: number, jobId = 1): string {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const token = [
      encode({ typ: 'JWT', alg: 'none' }),
      encode({ scp: `Actions.GenericRead:x Actions.Results:run-${runId}:job-${jobId}`, iat: 1 }),
      'sig'
    ].join('.')
    this.tokens.add(token)
    return token
  }

  seedArtifact(seed: SeedArtifact): ArtifactRecord {
    const record: ArtifactRecord = {
      id: this.nextId++,
      name: seed.name,
      runId: seed.runId,
      runBackendId: `run-${seed.runId}`,
      jobBackendId: 'job-1',
      bytes: seed.zip,
      blocks: new Map(),
      finalized: true,
      createdAt: seed.createdAt ?? new Date().toISOString(),
      expiresAt: seed.expiresAt ?? new Date(Date.now() + 30 * 86400_000).toISOString(),
      expired: seed.expired ?? false,
      digest: seed.digest ?? `sha256:${sha256(seed.zip)}`,
      headBranch: seed.headBranch ?? this.repo.defaultBranch,
      headSha: seed.headSha ?? 'b'.repeat(40),
      repositoryId: seed.repositoryId ?? this.repo.id,
      headRepositoryId: seed.headRepositoryId ?? seed.repositoryId ?? this.repo.id
    }
    this.artifacts.push(record)
    return record
  }

  seedRun(run: Partial<WorkflowRunRecord> & { id: number }): WorkflowRunRecord {
    const record: WorkflowRunRecord = {
      event: 'push',
      status: 'completed',
      conclusion: 'success',
      head_branch: this.repo.defaultBranch,
      head_sha: 'b'.repeat(40),
      repositoryId: this.repo.id,
      headRepositoryId: this.repo.id,
      ...run
    }
    this.runs.set(run.id, record)
    return record
  }

  seedFile(ref: string, file: string, text: string): void {
    if (!this.contents.has(ref)) this.contents.set(ref, new Map())
    this.contents.get(ref)!.set(file, text)
  }

  seedComment(issue: number, body: string, login = this.botLogin, type: 'Bot' | 'User' = 'Bot'): CommentRecord {
    const comment = { id: this.nextId++, issue, body, login, type, createdAt: new Date().toISOString() }
    this.comments.push(comment)
    return comment
  }

  fail(failure: InjectedFailure): void {
    this.failures.push(failure)
  }

  /** Artifacts uploaded through the artifact service by a given run. */
  uploadedBy(runId: number): ArtifactRecord[] {
    return this.artifacts.filter(a => a.runId === runId && a.finalized)
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const raw = await readBody(req)
    const method = req.method ?? 'GET'
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: url.search,
      body: undefined,
      status: 0,
      authorization: req.headers.authorization ?? null
    }
    this.requests.push(record)
    const reply = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      record.status = status
      const text = body === undefined ? '' : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body)
      const type = Buffer.isBuffer(body) ? {} : { 'content-type': 'application/json; charset=utf-8' }
      res.writeHead(status, { ...type, 'x-github-request-id': `FAKE:${this.requests.length}`, ...headers })
      res.end(text)
    }

    if (url.pathname.startsWith(TWIRP_PREFIX)) {
      record.body = parseJson(raw)
      return this.twirp(url.pathname.slice(TWIRP_PREFIX.length), record.body as Record<string, any>, req, reply)
    }
    if (url.pathname.startsWith(BLOB_PREFIX)) {
      return this.blob(method, url, raw, reply, res)
    }

    // REST
    if (raw.length > 0) record.body = parseJson(raw)
    const problems = this.validator.validate(method, url.pathname, url.searchParams, record.body)
    if (problems.length > 0) {
      this.violations.push(`${method} ${url.pathname}${url.search}: ${problems.join('; ')}`)
      return reply(422, { message: 'Validation Failed (OpenAPI)', errors: problems })
    }
    // Octokit sends `token <t>`, fetch-based clients `Bearer <t>`: GitHub accepts both.
    const token = (req.headers.authorization ?? '').replace(/^(Bearer|token) /, '')
    if (!['test-token', 'read-only-token', 'pat-token'].includes(token)) {
      return reply(401, { message: 'Bad credentials' })
    }
    const failure = this.failures.find(f => f.method === method && f.path.test(url.pathname) && (f.times ?? Infinity) > 0)
    if (failure) {
      if (failure.times !== undefined) failure.times--
      return reply(failure.status, failure.body ?? { message: `injected ${failure.status}` }, failure.headers)
    }
    const route = this.validator.match(method, url.pathname)!
    return this.rest(route.operationId, route.params, url, record.body as Record<string, any>, req, reply)
  }

  private rest(
    operation: string,
    params: Record<string, string>,
    url: URL,
    body: Record<string, any>,
    req: IncomingMessage,
    reply: (status: number, body?: unknown, headers?: Record<string, string>) => void
  ): void {
    const token = (req.headers.authorization ?? '').replace(/^(Bearer|token) /, '')
    const readOnly = this.readOnly || token === 'read-only-token'
    const pat = token === 'pat-token'
    if (operation === 'users/get-authenticated') {
      // The workflow token is an installation token: it cannot say who it is.
      if (!pat) return reply(403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' })
      return reply(200, { login: this.patLogin, id: 583231, type: 'User' })
    }
    if (params.owner !== this.repo.owner || params.repo !== this.repo.name) return reply(404, { message: 'Not Found' })
    const forbidden = (permissions: string) =>
      reply(
        403,
        { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' },
        { 'x-accepted-github-permissions': permissions }
      )
    const perPage = Number(url.searchParams.get('per_page') ?? 30)
    const page = Number(url.searchParams.get('page') ?? 1)

    switch (operation) {
      case 'repos/get':
        return reply(200, {
          id: this.repo.id,
          name: this.repo.name,
          full_name: `${this.repo.owner}/${this.repo.name}`,
          default_branch: this.repo.defaultBranch
        })
      case 'actions/list-artifacts-for-repo':
      case 'actions/list-workflow-run-artifacts': {
        const name = url.searchParams.get('name')
        const runId = params.run_id ? Number(params.run_id) : null
        const all = this.artifacts.filter(a => a.finalized && (!name || a.name === name) && (runId === null || a.runId === runId))
        const slice = all.slice((page - 1) * perPage, page * perPage)
        return reply(
          200,
          { total_count: all.length, artifacts: slice.map(a => this.restArtifact(a)) },
          this.link(url, page, perPage, all.length)
        )
      }
      case 'actions/get-artifact': {
        const artifact = this.artifacts.find(a => a.id === Number(params.artifact_id) && a.finalized)
        return artifact ? reply(200, this.restArtifact(artifact)) : reply(404, { message: 'Not Found' })
      }
      case 'actions/download-artifact': {
        const artifact = this.artifacts.find(a => a.id === Number(params.artifact_id) && a.finalized)
        if (!artifact) return reply(404, { message: 'Not Found' })
        if (artifact.expired) return reply(410, { message: 'Artifact has expired' })
        return reply(302, undefined, {
          location: `${this.url}${BLOB_PREFIX}${artifact.id}/${encodeURIComponent(artifact.name)}.zip?sig=download`
        })
      }
      case 'actions/get-workflow-run': {
        const run = this.runs.get(Number(params.run_id))
        return run ? reply(200, this.restRun(run)) : reply(404, { message: 'Not Found' })
      }
      case 'issues/list-comments': {
        const all = this.comments.filter(c => c.issue === Number(params.issue_number))
        const slice = all.slice((page - 1) * perPage, page * perPage)
        return reply(
          200,
          slice.map(c => this.restComment(c)),
          this.link(url, page, perPage, all.length)
        )
      }
      case 'issues/create-comment': {
        if (readOnly) return forbidden('issues=write; pull_requests=write')
        if (tooLong(body.body)) return reply(422, bodyTooLong())
        const comment = pat
          ? this.seedComment(Number(params.issue_number), body.body, this.patLogin, 'User')
          : this.seedComment(Number(params.issue_number), body.body)
        return reply(201, this.restComment(comment))
      }
      case 'issues/update-comment': {
        if (readOnly) return forbidden('issues=write; pull_requests=write')
        const comment = this.comments.find(c => c.id === Number(params.comment_id))
        if (!comment) return reply(404, { message: 'Not Found' })
        if (tooLong(body.body)) return reply(422, bodyTooLong())
        comment.body = body.body
        return reply(200, this.restComment(comment))
      }
      case 'checks/create': {
        if (readOnly) return forbidden('checks=write')
        // Only GitHub Apps (the workflow token is one) may create check runs.
        if (pat)
          return reply(403, {
            message: 'Resource not accessible by personal access token',
            documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run'
          })
        const problem = checkRunProblem(body)
        if (problem) return reply(422, { message: 'Validation Failed', errors: [problem] })
        const check = { id: this.nextId++, body }
        this.checkRuns.push(check)
        return reply(201, this.restCheck(check))
      }
      case 'checks/update': {
        if (readOnly) return forbidden('checks=write')
        const check = this.checkRuns.find(c => c.id === Number(params.check_run_id))
        if (!check) return reply(404, { message: 'Not Found' })
        const merged = { ...check.body, ...body }
        const problem = checkRunProblem(merged)
        if (problem) return reply(422, { message: 'Validation Failed', errors: [problem] })
        check.body = merged
        return reply(200, this.restCheck(check))
      }
      case 'repos/get-content': {
        const ref = url.searchParams.get('ref') ?? this.repo.defaultBranch
        const text = this.contents.get(ref)?.get(params.path)
        if (text === undefined) return reply(404, { message: 'Not Found' })
        const content = Buffer.from(text).toString('base64')
        const sha = createHash('sha1').update(text).digest('hex')
        const self = `${this.url}/repos/${this.repo.owner}/${this.repo.name}/contents/${params.path}?ref=${ref}`
        return reply(200, {
          type: 'file',
          encoding: 'base64',
          size: Buffer.byteLength(text),
          name: params.path.split('/').pop(),
          path: params.path,
          content,
          sha,
          url: self,
          git_url: null,
          html_url: null,
          download_url: null,
          _links: { self, git: null, html: null }
        })
      }
      case 'pulls/get': {
        const pr = this.pulls.get(Number(params.pull_number))
        return pr ? reply(200, pr) : reply(404, { message: 'Not Found' })
      }
      default:
        this.violations.push(`the fake does not implement ${operation}`)
        return reply(501, { message: `not implemented: ${operation}` })
    }
  }

  private twirp(method: string, body: Record<string, any>, req: IncomingMessage, reply: (status: number, body?: unknown) => void): void {
    const auth = (req.headers.authorization ?? '').replace(/^Bearer /, '')
    if (!this.tokens.has(auth)) return reply(401, { code: 'unauthenticated', msg: 'unknown runtime token' })
    const scope = /Actions\.Results:([^:\s]+):([^:\s]+)/.exec(JSON.parse(Buffer.from(auth.split('.')[1], 'base64url').toString()).scp)
    if (!scope || body.workflow_run_backend_id !== scope[1] || body.workflow_job_run_backend_id !== scope[2]) {
      return reply(403, { code: 'permission_denied', msg: 'backend ids do not match the token' })
    }
    const runBackendId = body.workflow_run_backend_id as string
    const runId = Number(runBackendId.replace(/^run-/, ''))
    const inRun = (a: ArtifactRecord) => a.runBackendId === runBackendId
    switch (method) {
      case 'CreateArtifact': {
        if (this.artifacts.some(a => inRun(a) && a.name === body.name)) {
          return reply(409, { code: 'already_exists', msg: 'an artifact with this name already exists on the workflow run' })
        }
        // A run the test seeded tells which branch and commit the upload belongs to.
        const run = this.runs.get(runId)
        const record: ArtifactRecord = {
          id: this.nextId++,
          name: body.name,
          runId,
          runBackendId,
          jobBackendId: body.workflow_job_run_backend_id,
          bytes: null,
          blocks: new Map(),
          finalized: false,
          createdAt: new Date().toISOString(),
          expiresAt: body.expires_at ?? null,
          expired: false,
          digest: null,
          headBranch: run?.head_branch ?? 'pr-branch',
          headSha: run?.head_sha ?? 'c'.repeat(40),
          repositoryId: this.repo.id,
          headRepositoryId: run?.headRepositoryId ?? this.repo.id
        }
        this.artifacts.push(record)
        return reply(200, {
          ok: true,
          signed_upload_url: `${this.url}${BLOB_PREFIX}${record.id}/${encodeURIComponent(record.name)}.zip?sig=upload&se=x`
        })
      }
      case 'FinalizeArtifact': {
        const record = this.artifacts.find(a => inRun(a) && a.name === body.name && !a.finalized)
        if (!record || !record.bytes) return reply(404, { code: 'not_found', msg: 'no upload to finalize' })
        const digest = `sha256:${sha256(record.bytes)}`
        if (String(record.bytes.length) !== String(body.size) || digest !== body.hash) {
          return reply(400, { code: 'invalid_argument', msg: `size or hash mismatch (${record.bytes.length}, ${digest})` })
        }
        record.finalized = true
        record.digest = digest
        return reply(200, { ok: true, artifact_id: String(record.id) })
      }
      case 'ListArtifacts': {
        const list = this.artifacts.filter(
          a =>
            inRun(a) &&
            a.finalized &&
            (!body.name_filter || a.name === body.name_filter) &&
            (!body.id_filter || String(a.id) === String(body.id_filter))
        )
        return reply(200, {
          artifacts: list.map(a => ({
            workflow_run_backend_id: a.runBackendId,
            workflow_job_run_backend_id: a.jobBackendId,
            database_id: String(a.id),
            name: a.name,
            size: String(a.bytes?.length ?? 0),
            created_at: a.createdAt,
            digest: a.digest
          }))
        })
      }
      case 'GetSignedArtifactURL': {
        const record = this.artifacts.find(a => inRun(a) && a.finalized && a.name === body.name)
        if (!record) return reply(404, { code: 'not_found', msg: 'artifact not found' })
        return reply(200, { signed_url: `${this.url}${BLOB_PREFIX}${record.id}/${encodeURIComponent(record.name)}.zip?sig=download` })
      }
      case 'DeleteArtifact': {
        const index = this.artifacts.findIndex(a => inRun(a) && a.name === body.name)
        if (index < 0) return reply(404, { code: 'not_found', msg: 'artifact not found' })
        const [removed] = this.artifacts.splice(index, 1)
        return reply(200, { ok: true, artifact_id: String(removed.id) })
      }
      default:
        return reply(404, { code: 'bad_route', msg: `no method ${method}` })
    }
  }

  private blob(
    method: string,
    url: URL,
    raw: Buffer,
    reply: (status: number, body?: unknown, headers?: Record<string, string>) => void,
    res: ServerResponse
  ): void {
    const id = Number(url.pathname.slice(BLOB_PREFIX.length).split('/')[0])
    const record = this.artifacts.find(a => a.id === id)
    if (!record) return reply(404, '')
    const comp = url.searchParams.get('comp')
    if (method === 'PUT' && comp === 'block') {
      record.blocks.set(url.searchParams.get('blockid') ?? '', raw)
      return reply(201, '')
    }
    if (method === 'PUT' && comp === 'blocklist') {
      const ids = [...raw.toString('utf8').matchAll(/<Latest>([^<]*)<\/Latest>/g)].map(m => m[1])
      record.bytes = Buffer.concat(ids.map(blockId => record.blocks.get(blockId) ?? Buffer.alloc(0)))
      record.blocks.clear()
      return reply(201, '')
    }
    if (method === 'GET' && record.bytes) {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(record.bytes.length) })
      res.end(record.bytes)
      return
    }
    return reply(404, '')
  }

  private link(url: URL, page: number, perPage: number, total: number): Record<string, string> {
    if (page * perPage >= total) return {}
    const next = new URL(url.toString())
    next.searchParams.set('page', String(page + 1))
    next.searchParams.set('per_page', String(perPage))
    return { link: `<${this.url}${next.pathname}${next.search}>; rel="next"` }
  }

  private restArtifact(a: ArtifactRecord): Record<string, unknown> {
    const base = `${this.url}/repos/${this.repo.owner}/${this.repo.name}/actions/artifacts/${a.id}`
    return {
      id: a.id,
      node_id: `A_${a.id}`,
      name: a.name,
      size_in_bytes: a.bytes?.length ?? 0,
      url: base,
      archive_download_url: `${base}/zip`,
      expired: a.expired,
      created_at: a.createdAt,
      expires_at: a.expiresAt,
      updated_at: a.createdAt,
      digest: a.digest,
      workflow_run: {
        id: a.runId,
        repository_id: a.repositoryId,
        head_repository_id: a.headRepositoryId,
        head_branch: a.headBranch,
        head_sha: a.headSha
      }
    }
  }

  private restRun(run: WorkflowRunRecord): Record<string, unknown> {
    return {
      id: run.id,
      event: run.event,
      status: run.status,
      conclusion: run.conclusion,
      head_branch: run.head_branch,
      head_sha: run.head_sha,
      repository: { id: run.repositoryId, full_name: `${this.repo.owner}/${this.repo.name}` },
      head_repository: { id: run.headRepositoryId },
      html_url: `https://github.com/${this.repo.owner}/${this.repo.name}/actions/runs/${run.id}`
    }
  }

  private restComment(c: CommentRecord): Record<string, unknown> {
    return {
      id: c.id,
      node_id: `IC_${c.id}`,
      body: c.body,
      html_url: `https://github.com/${this.repo.owner}/${this.repo.name}/pull/${c.issue}#issuecomment-${c.id}`,
      user: { login: c.login, type: c.type },
      created_at: c.createdAt,
      updated_at: c.createdAt
    }
  }

  private restCheck(c: CheckRunRecord): Record<string, unknown> {
    return {
      id: c.id,
      name: c.body.name,
      head_sha: c.body.head_sha,
      status: c.body.status,
      conclusion: c.body.conclusion ?? null,
      html_url: `https://github.com/${this.repo.owner}/${this.repo.name}/runs/${c.id}`
    }
  }
}

function tooLong(body: unknown): boolean {
  return typeof body === 'string' && body.length > COMMENT_LIMIT
}

function bodyTooLong(): unknown {
  return {
    message: 'Validation Failed',
    errors: [
      {
        resource: 'IssueComment',
        code: 'unprocessable',
        field: 'data',
        message: `Body is too long (maximum is ${COMMENT_LIMIT} characters)`
      }
    ]
  }
}

/** Rules of check runs that the OpenAPI schema cannot express. */
function checkRunProblem(body: Record<string, any>): string | null {
  if ((body.status === 'completed' || body.completed_at) && !body.conclusion) {
    return 'conclusion is required when status is completed'
  }
  for (const field of ['summary', 'text'] as const) {
    const value = body.output?.[field]
    if (typeof value === 'string' && value.length > CHECK_OUTPUT_LIMIT) return `output.${field} is too long`
  }
  return null
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    return raw.toString('utf8')
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', chunk => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}
