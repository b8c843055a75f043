/** What a CLI command may touch, passed in so commands are testable without a real process. */
export interface CliIo {
  stdout: (s: string) => void
  stderr: (s: string) => void
  env: NodeJS.ProcessEnv
  cwd: string
  /** Standard error is a terminal: counted progress lines replace each other (progress-line.ts). */
  stderrIsTerminal?: boolean
}

export function processIo(): CliIo {
  return {
    stdout: s => process.stdout.write(s),
    stderr: s => process.stderr.write(s),
    env: process.env,
    cwd: process.cwd(),
    stderrIsTerminal: process.stderr.isTTY === true
  }
}
