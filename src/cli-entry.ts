/** Entry point of dist/cli.js (the `helm-gate` bin). Kept apart from cli.ts so tests can import main(). */
import { main } from './cli.js'
import { processIo } from './cli/io.js'

main(process.argv.slice(2), processIo()).then(
  code => {
    process.exitCode = code
  },
  () => {
    process.exitCode = 2
  }
)
