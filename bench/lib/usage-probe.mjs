// Loaded with `node --import` into a measured process: at exit it writes the process's own CPU
// time and peak RSS (getrusage) to the file named by HELM_GATE_USAGE_FILE.
import { writeFileSync } from 'node:fs'

const file = process.env.HELM_GATE_USAGE_FILE
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage()
    writeFileSync(
      file,
      JSON.stringify({ user_s: usage.userCPUTime / 1e6, system_s: usage.systemCPUTime / 1e6, max_rss_mb: usage.maxRSS / 1024 })
    )
  })
}
