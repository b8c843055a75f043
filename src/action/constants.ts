/**
 * Names and limits shared by the action's modules: input and output names (as in action.yml),
 * the sticky-comment marker, and GitHub's size limits per destination.
 */

/** Hidden first line of the sticky comment. First, so that truncation can never remove it. */
export const COMMENT_MARKER = '<!-- helm-gate:sticky-comment -->'

/** Issue and PR comment bodies: GitHub answers 422 "Body is too long" above this. */
export const COMMENT_MAX_LENGTH = 65536
/** Check-run output.summary and output.text each. */
export const CHECK_OUTPUT_MAX_LENGTH = 65535
/** $GITHUB_STEP_SUMMARY: the runner refuses more than 1 MiB per step. Keep a margin. */
export const JOB_SUMMARY_MAX_LENGTH = 1_000_000

export const INPUTS = {
  config: 'config',
  mode: 'mode',
  githubToken: 'github-token',
  comment: 'comment',
  checkName: 'check-name',
  baseline: 'baseline',
  baselineArtifact: 'baseline-artifact',
  baselineMaxAgeDays: 'baseline-max-age-days',
  retentionDays: 'retention-days',
  inconclusive: 'inconclusive',
  shardIndex: 'shard-index',
  shardCount: 'shard-count',
  workingDirectory: 'working-directory',
  outputDir: 'output-dir',
  allowForkLaunch: 'allow-fork-launch',
  frozenConfig: 'frozen-config'
} as const

export const OUTPUTS = {
  verdict: 'verdict',
  reportPath: 'report-path',
  markdownPath: 'markdown-path',
  commentUrl: 'comment-url',
  checkRunId: 'check-run-id',
  artifactId: 'artifact-id',
  artifactName: 'artifact-name',
  baselineSource: 'baseline-source',
  baselineAgeHours: 'baseline-age-hours',
  baselineArtifactId: 'baseline-artifact-id'
} as const

/** Prefix of every artifact this action uploads; the mode and identity follow it. */
export const ARTIFACT_PREFIX = 'helm-gate'
