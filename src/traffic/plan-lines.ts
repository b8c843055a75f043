/** What `helm-gate plan` shows of the traffic gate: the set, what is replayed where, the checks. */
import type { TrafficSettings } from '../config/traffic.js'
import { TRAFFIC_CHECKS } from '../config/traffic.js'

export function trafficPlanLines(traffic: TrafficSettings): string[] {
  const count = (test: (i: TrafficSettings['instances'][number]) => boolean): number => traffic.instances.filter(test).length
  const json = count(i => typeof i.request.response_format === 'object' && i.request.response_format !== null)
  const tools = count(i => Array.isArray(i.request.tools) && i.request.tools.length > 0)
  const references = count(i => i.reference !== null)
  const checks = TRAFFIC_CHECKS.map(name => `${name} ${traffic.checks[name] === null ? 'report' : `<= ${traffic.checks[name]}`}`)
  return [
    `# traffic: ${traffic.instances.length} requests from ${traffic.set} (sha256 ${traffic.setSha256.slice(0, 16)}, in the fingerprint):` +
      ` ${json} in JSON mode, ${tools} with tools, ${references} with a reference`,
    `#   replayed ${traffic.baselineReruns ? 'twice on the baseline (B1, B2: the noise floor)' : 'once on the baseline (no noise floor)'} and once on the candidate,` +
      ` temperature ${traffic.temperature ?? 'as logged'}, ${traffic.concurrency} at a time, ${traffic.requestTimeoutSeconds} s per request, no retries`,
    `#   checks (tolerated excess): ${checks.join(', ')}; similarity ${traffic.similarity}${traffic.ignoreCase ? ', case ignored' : ''}`,
    `#   refusal patterns: ${traffic.refusalPatterns.length}`
  ]
}
