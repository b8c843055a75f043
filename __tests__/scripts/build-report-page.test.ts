/**
 * scripts/build-report-page.mjs: the report page's script that html.ts embeds is the bundle of
 * html-client.ts as it is now, so the browser tests (__tests__/report/browser/) test the source.
 */
import { describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'

describe('build-report-page', () => {
  it('the committed bundle is what html-client.ts gives', async () => {
    const result = await run(process.execPath, [join(REPO_ROOT, 'scripts', 'build-report-page.mjs'), '--check'], { cwd: REPO_ROOT })
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  }, 120_000)
})
