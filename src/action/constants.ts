/**
 * Names shared by the action's modules: input and output names (as in action.yml) and the
 * sticky-comment marker. GitHub's size limits are in model/publication.ts.
 */

/**
 * Hidden first line of the sticky comment, keyed by the gate (its gate file's path in the
 * repository), so two gates on one pull request keep two comments. First, so that truncation can
 * never remove it.
 */
export function commentMarker(gateId: string): string {
  return `<!-- helm-gate:sticky-comment ${gateId.replace(/[^A-Za-z0-9_./=+-]/g, '_').replace(/-{2,}/g, '-')} -->`
}

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
  load: 'load',
  baselinePath: 'baseline-path',
  candidatePath: 'candidate-path'
} as const

export const OUTPUTS = {
  verdict: 'verdict',
  decision: 'decision',
  decidedBy: 'decided-by',
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
