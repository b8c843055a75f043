/**
 * Entry of the GitHub Action, bundled as dist/index.js (action.yml `runs.main`). Exits explicitly
 * once run() settles, so keep-alive sockets or retry timers left by the toolkit cannot keep the
 * job step alive; the exit code is the one run() set through setFailed.
 */
import { run } from './action/run.js'

await run()
process.exit()
