// Speed of the seedable generators that `seedrandom` ships, to choose the one the bootstrap's hot
// loop uses (src/stats/random.ts). Run: `node bench/stats-rng.mjs [draws]` after `npm ci`.
// Figures are ns per draw, best of 5 rounds, after a warm-up round. Each algorithm is timed in its
// own child process (per method too): timing them in one process lets V8's inline caches go polymorphic and
// penalises whichever runs later.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import seedrandom from 'seedrandom'

const draws = Number(process.argv[2] ?? 5_000_000)
const algorithms = {
  arc4: seed => seedrandom(seed),
  alea: seedrandom.alea,
  xor128: seedrandom.xor128,
  xorwow: seedrandom.xorwow,
  xorshift7: seedrandom.xorshift7,
  xor4096: seedrandom.xor4096,
  tychei: seedrandom.tychei
}

// The same unbiased bounded draw as src/stats/random.ts: rejection on the 32-bit output.
function makeBelow(int32) {
  return n => {
    const limit = 0x100000000 - (0x100000000 % n)
    let u
    do u = int32() >>> 0
    while (u >= limit)
    return u % n
  }
}

function time(label, draw) {
  let best = Infinity
  let sink = 0
  for (let round = 0; round < 6; round++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < draws; i++) sink += draw()
    const ns = Number(process.hrtime.bigint() - start) / draws
    if (round > 0) best = Math.min(best, ns)
  }
  return { label, ns: best, sink }
}

const methods = {
  'quick() ns': prng => prng.quick,
  'int32() ns': prng => prng.int32,
  'double() ns': prng => prng.double,
  'below(1000) ns': prng => {
    const below = makeBelow(prng.int32)
    return () => below(1000)
  }
}

if (process.argv[3] === '--one') {
  const [name, method] = [process.argv[4], process.argv[5]]
  const draw = methods[method](algorithms[name]('helm-gate:0'))
  process.stdout.write(String(time(method, draw).ns))
} else {
  // One process per (algorithm, method): the timing loop stays monomorphic.
  const self = fileURLToPath(import.meta.url)
  const rows = Object.keys(algorithms).map(name => {
    const row = { algorithm: name }
    for (const method of Object.keys(methods)) {
      const child = spawnSync(process.execPath, [self, String(draws), '--one', name, method], { encoding: 'utf8' })
      if (child.status !== 0) throw new Error(`${name} ${method}: ${child.stderr}`)
      row[method] = Number(child.stdout).toFixed(2)
    }
    return row
  })
  const reference = time('Math.random', Math.random)
  console.log(`node ${process.version}, ${draws} draws per round, one process per measurement`)
  console.table(rows)
  console.log(`Math.random (not seedable, reference only): ${reference.ns.toFixed(2)} ns`)
}
