/**
 * The usage text of every command, in one place: each command prints its own with --help and
 * after a usage error, `helm-gate --help` lists the commands one line each from COMMAND_LINES, and
 * docs/cli.md is generated from the same text (scripts/cli-docs.mjs; a test fails when it drifts).
 * Plain strings, so the top-level help does not load the commands that are loaded only when used.
 */

export const COMPARE_USAGE = `usage: helm-gate compare <baseline> <candidate> [options]

Each side is a HELM output path (benchmark_output), a suite directory (runs/<suite>)
or a single run directory; or an lm-eval --log_samples output folder (OUT or
OUT/<model>), where runs are tasks and --split names the lm-eval filter.

  --config FILE             gate file (runs, metrics, tolerated drops, statistics)
  --metric NAME             metric to compare in every run (without --config)
  --split NAME              split to compare (default: the only one, or test)
  --max-drop M              tolerated drop in metric units
  --max-relative-drop R     tolerated drop as a fraction of the baseline mean
  --lower-is-better         the metric is an error rate (lower is better)
  --gate-perturbations      gate each perturbation and the worst case too
  --confidence C            interval level (default 0.95)
  --resamples N             bootstrap draws (default 10000)
  --seed S                  bootstrap seed (default 0)
  --interval METHOD         auto | bootstrap | newcombe | tango (0/1 metrics)
  --min-overlap F           shared instances needed (default 0.95)
  --examples N              changed answers shown per comparison (default 3)
  --json FILE|-             write the JSON report (-: to standard output, and the summary
                            to standard error, so the output can be piped)
  --markdown FILE           write the markdown report (the PR comment body)
  --html FILE               write report.html: plot, sortable table, every changed answer
  --quiet                   print nothing but errors
  --debug                   show stack traces
`

export const RUN_USAGE = `usage: helm-gate run --config FILE [options]

Runs the gate file's entries against the baseline and the candidate with helm-run (both at
once), then compares them per instance.

  --config FILE          gate file (helm, deployments, runs)
  --out DIR              output folder (default: helm-gate-runs/<time>); must be new or empty
  --self-check           run the baseline against itself: the flip rate is the server's noise floor
                         (exit 0 unless the runs fail)
  --sequential           run the sides one after the other instead of at the same time
  --baseline-ref REF     the commit a launched baseline with checkout: base runs from, and where
                         fingerprint_paths are read (default HEAD); see docs/launch.md
  --ready-timeout SEC    wait this long for each server's GET /models (default 120); a launched server
                         has its own, ready_timeout_seconds
  --examples N           changed answers shown per comparison (default 3)
  --only quality|load    run one half only (default: quality, then the load half when the gate
                         file has load:)
  --json FILE|-          also write the JSON report to FILE (it is always in the output folder);
                         -: to standard output, and every other line to standard error
  --markdown FILE        also write the markdown report (the PR comment body) to FILE
  --html FILE            also write report.html (it is always in the output folder) to FILE
  --verbose              stream every helm-run log line (prefixed with its side)
  --quiet                print nothing but errors
  --debug                show stack traces
`

export const LOAD_USAGE = `usage: helm-gate load --config FILE [options]

Runs the performance half alone: a load test of the baseline and the candidate (never at the
same time, blocks A B B A ...) at the gate file's load levels, and checks the claims in load.checks.

  --config FILE          gate file (deployments and load)
  --out DIR              output folder (default: helm-gate-runs/<time>); must be new or empty
  --sequential           launched servers one after the other (see docs/launch.md)
  --baseline-ref REF     the commit a launched baseline with checkout: base runs from
  --quiet                print nothing but errors
  --debug                show stack traces
`

export const PLAN_USAGE = `usage: helm-gate plan --config FILE [options]

Prints the run plan \`helm-gate run\` would execute (each side's endpoint, the name of its API key
variable and whether it is set, never its value, launched or always up; the schedule; the
fingerprint; the measurements in the order they run), the prod_env files generated for each side
(secrets redacted) and the exact helm-run commands, how many instances each comparison will have
and whether that can resolve its tolerated drop. The instances are counted by \`helm-run
--dry-run\` with the same entries, and each gated metric name is checked against the names the
run spec's metrics declare (exit 2 for one they never write, with "did you mean"). Starts
nothing (but --measure-swap) and sends no request to any server, except when the gate file has
a fidelity section: each server always up is asked which fidelity route it supports (GET
/version and /props; one that answers /version also gets POST /tokenize and a one-token
completion with prompt_logprobs).

  --config FILE          gate file
  --out DIR              the output folder run would use
  --self-check           plan a self-check (the baseline on both sides)
  --ready-timeout SEC    the readiness timeout run would use (default 120; a launched server has its own,
                         ready_timeout_seconds)
  --discordance R        assumed share of changed answers (0/1 metrics, e.g. a self-check's flip
                         rate): warn when a comparison has too few instances for it
  --sequential           plan the sides one after the other (as run --sequential)
  --baseline-ref REF     the commit a launched baseline with checkout: base runs from (as run)
  --no-count             skip the dry run and the metric-name check (both ask HELM)
  --json                 print the plan as one JSON document (fingerprint, measurements,
                         instances, each side's argv and prod_env files, the text lines)
  --measure-swap         launch each side once and time one swap as the load half pays it (both
                         sides launched, sequential): the swaps and blocks load.swap_budget_seconds
                         allows at that cost; the only option that starts anything
`

export const POWER_USAGE = `usage: helm-gate power --config FILE (--pilot DIR | --discordance R)

For each gated comparison, the smallest max_eval_instances whose interval would lie above the
tolerated drop, by a normal approximation for paired differences:
  n = ceil((z * sd / (delta + max_drop))^2)

  --pilot DIR         a previous run's output folder (or its report.json): sd and delta are
                      taken from each comparison there
  --discordance R     assumed share of instances whose answer changes (0/1 metrics; delta 0,
                      sd = sqrt(R)); e.g. the flip rate from run --self-check
`

export const TRAFFIC_USAGE = `usage: helm-gate traffic build LOG.jsonl... --out SET.jsonl --count N [options]

Builds a frozen traffic set from request logs: chat-completions request bodies, Batch API input
lines (give the Batch API output file too to keep the logged answers), or {request, response}
pairs, one per line. Samples N requests stratified by tag and prompt length, seeded; removes
duplicates; scrubs credentials, e-mail addresses and phone numbers. Writes SET.jsonl and
SET.summary.json beside it, and prints the summary.

  --out FILE           the set to write (.jsonl)
  --count N            how many requests to sample
  --seed S             the sampling seed (default 0): the same logs and seed give the same bytes
  --tag-field NAME     the key of the tag on each line, or in the request's metadata (default tag)
  --drop-field A,B     request fields to keep out of the set, besides user, metadata, store
  --skip-non-chat      count and skip Batch API lines for other endpoints (default: an error)
  --quiet              print nothing but errors
`

/** One line per command for `helm-gate --help`: what it is for (its usage has the rest). */
export const COMMAND_LINES: readonly { name: string; summary: string }[] = [
  { name: 'compare', summary: 'compare two existing outputs per instance: HELM runs or lm-eval --log_samples folders' },
  { name: 'run', summary: 'run both deployments (helm-run or runner commands), compare them, then the load half' },
  { name: 'load', summary: 'the performance half alone: load-test both deployments' },
  { name: 'plan', summary: 'what run would do: prod_env files, commands, instance counts; sends no request' },
  { name: 'power', summary: 'instances needed for a decisive result' },
  { name: 'traffic', summary: 'traffic build: a frozen traffic set from request logs' }
]
