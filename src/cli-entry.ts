/**
 * Entry of the command line, bundled as dist/cli.js (the `helm-gate` bin). The commands are in
 * cli/main.ts, which tests import without starting a process.
 */
import { main } from './cli/main.js'
import { processIo } from './cli/io.js'

main(process.argv.slice(2), processIo()).then(
  code => {
    process.exitCode = code
  },
  () => {
    process.exitCode = 2
  }
)
