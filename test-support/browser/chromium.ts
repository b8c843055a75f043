/**
 * A real browser for the report tests: Debian's chromium (scripts/install-chromium.sh) driven by
 * puppeteer-core, headless, sandbox off (CI runs as root), no network side traffic, and a fresh
 * profile directory per launch that is deleted on close.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'

export const CHROMIUM = process.env.HELM_GATE_CHROMIUM ?? '/usr/bin/chromium'

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run'
]

export interface BrowserSession {
  browser: Browser
  /** A new page that records console errors, page errors and failed or off-machine requests. */
  page(width?: number): Promise<{ page: Page; problems: string[] }>
  close(): Promise<void>
}

export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run bash scripts/install-chromium.sh`)
}

export async function launchChromium(): Promise<BrowserSession> {
  requireChromium()
  const profile = mkdtempSync(join(tmpdir(), 'helm-gate-chromium-'))
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, `--user-data-dir=${profile}`],
    // puppeteer-core would otherwise add its own --headless=new and --user-data-dir.
    ignoreDefaultArgs: ['--headless=new', '--user-data-dir'],
    timeout: 60_000
  })
  return {
    browser,
    async page(width = 1200) {
      const page = await browser.newPage()
      await page.setViewport({ width, height: 900 })
      const problems: string[] = []
      page.on('console', message => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
      })
      page.on('pageerror', error => problems.push(`page error: ${String(error)}`))
      page.on('requestfailed', request => problems.push(`request failed: ${request.url()}`))
      page.on('request', request => {
        if (!/^(about:|data:|file:)/.test(request.url())) problems.push(`network request: ${request.url()}`)
      })
      return { page, problems }
    },
    async close() {
      await browser.close()
      rmSync(profile, { recursive: true, force: true })
    }
  }
}

/** GitHub's markdown parser (cmark-gfm with GitHub's extensions), as the comment is rendered. */
export function renderGfm(markdown: string): string {
  const r = spawnSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'strikethrough', '-e', 'autolink', '-e', 'tagfilter', '-t', 'html'], {
    input: markdown,
    encoding: 'utf8',
    maxBuffer: 1 << 26
  })
  if (r.error || r.status !== 0) throw new Error(`cmark-gfm failed: ${r.error?.message ?? r.stderr}; run bash scripts/install-chromium.sh`)
  return r.stdout
}

/** GitHub's stylesheet for rendered markdown (github-markdown-css, light theme). */
export function githubMarkdownCss(): string {
  const require = createRequire(import.meta.url)
  return readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8')
}
