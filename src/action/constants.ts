/**
 * Names shared by the action's modules: input and output names (as in action.yml) and the
 * sticky-comment marker. GitHub's size limits are in model/publication.ts.
 */

/** Hidden first line of the sticky comment. First, so that truncation can never remove it. */
export const COMMENT_MARKER = '<!-- helm-gate:sticky-comment -->'

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
  frozenConfig: 'frozen-config',
  load: 'load'
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
