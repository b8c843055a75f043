/** The statistics engine: pure numerical code, no I/O (docs/method.md). */
export type {
  ComparisonVerdict,
  Direction,
  Interval,
  IntervalMethodUsed,
  PairedCluster,
  PairedEstimate,
  RatioEstimate,
  StatisticsSettings,
  VerdictDecision
} from './types.js'
export { AUTO_BINARY_INTERVAL, estimatePaired } from './paired.js'
export { decideVerdict, resolveMaxDrop } from './decide-verdict.js'
export { binarySd, instancesNeeded, instancesToResolve, type PowerInput } from './power.js'
export { ratioOfQuantiles, ratiosOfQuantiles } from './ratio.js'
export { mcnemarExactPValue } from './binomial.js'
export { newcombeInterval, tangoInterval, type PairedTable } from './paired-proportions.js'
export { createRandom, GENERATOR_NAME, type Random } from './random.js'
export { quantile } from './quantile.js'
export { decideExcess, decideSimilarityLoss, excessDisagreement, similarityLoss } from './noise-floor.js'
export {
  decideRatioBand,
  MEAN_RATIO_STREAM,
  ratioOfMeans,
  ratioOfMeansDelta,
  type MeanRatioEstimate,
  type RatioBand,
  type RatioDecision
} from './mean-ratio.js'
