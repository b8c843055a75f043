/**
 * The compare step (docs/load.md): figures per level, ratios over the block pairs, checks, the
 * notes and warnings about what was measured, and the headline.
 */
import { availableParallelism } from 'node:os'
import type { LoadSettings } from '../config/load-types.js'
import type { LoadBlock, LoadReport, LoadSide, LoadSummary } from '../model/load-report.js'
import { evaluateChecks, reportedRatios, worstVerdict } from './ratio-checks.js'
import { figures } from './metrics.js'
import type { RequestTiming } from './types.js'
import { LOAD_SIDES, levelName, type LoadOutcome, type LoadRun } from './load-run.js'

/** The compare step: figures per level, ratios over the block pairs, checks and the verdict. */
export function finishLoad(run: LoadRun, blocks: LoadBlock[], timings: RequestTiming[]): LoadOutcome {
  const { report, load, config } = run
  report.blocks = blocks
  report.summary = load.levels.map(level => summarize(level, timings, blocks, load))
  report.ratios = reportedRatios(blocks, report.summary, load.checks, config.statistics.confidence)
  report.checks = evaluateChecks(load.checks, blocks, report.summary, config.statistics.confidence)
  addNotes(report)
  promptNote(report, timings)
  const cpuWarning = clientCpuWarning(blocks, load.clientCpuWarnShare, availableParallelism())
  if (cpuWarning) report.warnings.push({ code: 'load.client_cpu', message: cpuWarning })
  for (const side of LOAD_SIDES) {
    const note = chunkNote(side, timings)
    if (note) report.notes.push(note)
  }
  report.verdict = worstVerdict([...report.checks.map(c => c.verdict), ...(report.errors.length ? ['error' as const] : [])])
  report.headline = headline(report, load)
  return { report, timings }
}

/** The prompts' sizes: requested, realized by the tokenizer, and as each server counted them (usage). */
function promptNote(report: LoadReport, timings: RequestTiming[]): void {
  const p = report.prompt_tokens
  if (!p) return
  for (const side of LOAD_SIDES) {
    const counted = timings.filter(t => t.side === side && t.status === 'ok' && typeof t.prompt_tokens === 'number')
    p.served[side] = counted.length ? counted.reduce((s, t) => s + (t.prompt_tokens as number), 0) / counted.length : null
  }
  const served = LOAD_SIDES.map(side => `${side} ${p.served[side] === null ? 'unknown' : p.served[side]?.toFixed(1)}`).join(', ')
  report.notes.push(
    p.sized_by === 'server'
      ? `Synthetic prompts sized with the ${p.tokenizer}: requested mean ${p.requested_mean.toFixed(1)} tokens, realized ${p.realized_mean?.toFixed(1)} (${p.realized_min} to ${p.realized_max}) over ${p.prompts} prompts, the same texts on both sides; counted by the servers (usage, chat template included): ${served}.`
      : `Synthetic prompts sized at one word per token (the baseline serves no /tokenize): requested mean ${p.requested_mean.toFixed(1)} tokens; counted by the servers (usage): ${served}.`
  )
}

/**
 * On a small host the load client competes with a CPU engine for the cores: its CPU time is then
 * part of what is measured. Warned when a block's share of the host's CPU time is above `limit`
 * (docs/load.md, "Pinning the client and the engine apart").
 */
export function clientCpuWarning(blocks: LoadBlock[], limit: number, cores: number): string | null {
  const over = blocks.filter(b => (b.client_cpu_share ?? 0) > limit)
  if (over.length === 0) return null
  const worst = Math.max(...over.map(b => b.client_cpu_share ?? 0))
  return (
    `The load client used more than ${pct(limit)} of the host's CPU time (${cores} core${cores === 1 ? '' : 's'}) in ${over.length} of ${blocks.length} blocks ` +
    `(at most ${pct(worst)}): on a CPU engine the client competes with the server, so its own work is in the figures. Pin them apart (taskset, docs/load.md) or use a larger host.`
  )
}

function pct(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`
}

function summarize(level: number, timings: RequestTiming[], blocks: LoadBlock[], load: LoadSettings): LoadSummary {
  const pooled = (side: LoadSide) => {
    const duration = blocks.filter(b => b.level === level && b.side === side).reduce((s, b) => s + b.duration_s, 0)
    return figures(
      timings.filter(t => t.level === level && t.side === side),
      duration,
      load.slo
    )
  }
  return { level, baseline: pooled('baseline'), candidate: pooled('candidate') }
}

/**
 * llama.cpp's server holds back a token that ends inside a UTF-8 character and sends it with the
 * next, and vLLM can put several tokens in one chunk too: then the gaps between chunks (ITL) are
 * not gaps between tokens, and a chunk-based ITL looks better than the engine's per-token pace.
 * Said when the successful requests' content chunks are fewer than 90 % of their output tokens
 * (by usage); TPOT (latency over tokens) is unaffected.
 */
export function chunkNote(side: LoadSide, timings: RequestTiming[]): string | null {
  let chunks = 0
  let tokens = 0
  for (const t of timings) {
    if (t.side !== side || t.status !== 'ok' || t.tokens_from !== 'usage' || t.ttft_ms === null) continue
    chunks += t.itl_ms.length + 1
    tokens += t.output_tokens
  }
  if (tokens === 0 || chunks >= 0.9 * tokens) return null
  return `The ${side} sent ${chunks} content chunks for ${tokens} output tokens (${(tokens / chunks).toFixed(2)} tokens per chunk): its ITL is the gap between chunks, not between tokens; TPOT is per token.`
}

function addNotes(report: LoadReport): void {
  for (const side of LOAD_SIDES) {
    if (report.sides[side].usage === false) {
      report.notes.push(
        `The ${side} sends no usage in its stream: its output tokens are content chunks counted, which equals tokens only when each chunk carries one.`
      )
    }
    if (report.sides[side].ignore_eos === false) {
      report.notes.push(
        `The ${side} rejected ignore_eos/min_tokens: its answers may stop before max_tokens, so the sides may not generate the same amount.`
      )
    }
  }
  for (const s of report.summary) {
    const b = s.baseline.mean_output_tokens
    const c = s.candidate.mean_output_tokens
    if (b !== null && c !== null && b > 0 && Math.abs(c / b - 1) > 0.05) {
      const message = `At ${report.mode} ${s.level} the sides generated different lengths: ${b.toFixed(1)} (baseline) vs ${c.toFixed(1)} (candidate) output tokens per request; throughput ratios compare different work.`
      report.warnings.push({ code: 'load.output_length', message })
    }
    for (const side of LOAD_SIDES) {
      const f = s[side]
      if (f.failed > 0) {
        report.notes.push(
          `At ${report.mode} ${s.level} the ${side} had ${f.failed} failed request(s) of ${f.requests} (${f.timed_out} timed out): counted in the error rate and against goodput.`
        )
      }
    }
  }
}

function headline(report: LoadReport, load: LoadSettings): string {
  const checks = report.checks
  const bad = checks.filter(c => c.verdict === report.verdict)
  const where = (c: (typeof checks)[number]): string => `${c.metric} at ${levelName(load, c.level)}`
  if (report.verdict === 'pass') return `Performance: pass: all ${checks.length} load checks passed.`
  const first = bad[0]
  const more = bad.length > 1 ? ` (and ${bad.length - 1} more)` : ''
  if (!first) return `Performance: ${report.verdict}.`
  return `Performance: ${report.verdict}: ${where(first)}: ${first.reason}${more}.`
}
