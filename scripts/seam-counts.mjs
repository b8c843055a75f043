#!/usr/bin/env node
// The seam's numbers (docs/development.md, "Where the sides are held"), measured on the sources
// with the TypeScript compiler's type checker rather than by reading:
//  - the calls from runGate down to where a side's runs are made (produceSideRuns: helm-run or a
//    runner command) and where the load half starts (runLoad): stops are the functions on some
//    path from runGate to either, climbs the calls on those paths from a lower floor of the folder
//    order (layer-floors.mjs) to a higher one (a callback, or an interface implemented above);
//    a call through an interface counts as a call of every class that implements it; a function
//    handed to a call of a lower floor (an arrow, an object literal's function members) is a
//    callback handed down, which that floor calls back up: counted beside the climbs;
//  - the files that bring a launched side up (Launcher#up) and open a launcher (Launcher.open);
//  - the places the schedule is resolved (reading `launch.schedule`);
//  - the API key lookups (apiKeyOf, requiredApiKey, apiKeyValues, apiKeyNames called);
//  - the endpoint rebuilds (an object literal with both `baseUrl` and `model` outside config/);
//  - the places the gate set's fingerprint is computed (gateFingerprint called);
//  - the callbacks runGate and the holder of the sides take: the function-typed members of their
//    parameters' interfaces (GateSettings; holdOnSchedule's), followed into members that are
//    interfaces of src/ themselves (not classes, arrays or library types);
//  - the measurements: the classes implementing SideMeasurement, and the entries of the list in
//    pipeline/measurements.ts.
// `node scripts/seam-counts.mjs [ROOT]` (default: this checkout), read-only.
import { relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { floorsOf, unitGraph } from './layer-floors.mjs'

const root = resolve(process.argv[2] ?? '.')
const src = resolve(root, 'src')
const config = ts.getParsedCommandLineOfConfigFile(
  resolve(root, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} }
)
const files = config.fileNames.filter(f => resolve(f).startsWith(src + sep))
const program = ts.createProgram(files, { ...config.options, noEmit: true })
const checker = program.getTypeChecker()
const floors = floorsOf(unitGraph(src))
const floorOf = new Map(floors.flatMap((line, i) => line.map(u => [u, i])))
const rel = file => relative(root, file)
const unit = file => relative(src, file).split(sep)[0]

/** A function-like declaration's name for the report: file:name. */
function nameOf(decl) {
  const file = rel(decl.getSourceFile().fileName)
  let name = decl.name?.getText?.()
  if (!name && ts.isVariableDeclaration(decl.parent)) name = decl.parent.name.getText()
  if (!name && ts.isPropertyDeclaration(decl.parent)) name = decl.parent.name.getText()
  const cls = decl.parent && ts.isClassDeclaration(decl.parent) ? `${decl.parent.name?.getText()}#` : ''
  return `${file}:${cls}${name ?? '(anonymous)'}`
}

const isFn = n =>
  ts.isFunctionDeclaration(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isArrowFunction(n) ||
  ts.isFunctionExpression(n) ||
  ts.isMethodSignature(n) ||
  ts.isPropertySignature(n) ||
  ts.isConstructorDeclaration(n)

/** Classes by the interfaces they implement: a call through the interface reaches each. */
const implementers = new Map()
for (const sf of program.getSourceFiles()) {
  if (!sf.fileName.startsWith(src)) continue
  ts.forEachChild(sf, function visit(n) {
    if (ts.isClassDeclaration(n))
      for (const clause of n.heritageClauses ?? [])
        for (const t of clause.types) {
          const name = t.expression.getText()
          if (!implementers.has(name)) implementers.set(name, [])
          implementers.get(name).push(n)
        }
    ts.forEachChild(n, visit)
  })
}

/** What a call may run: its declaration (the function a const holds), or the implementations of an interface member. */
function targetsOf(call) {
  let symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression)
  if (!symbol) return []
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
  const out = []
  for (const d of symbol.declarations ?? []) {
    if (!d.getSourceFile().fileName.startsWith(src)) continue
    if (ts.isVariableDeclaration(d) && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer)))
      out.push(d.initializer)
    else if (ts.isPropertyDeclaration(d) && d.initializer && ts.isArrowFunction(d.initializer)) out.push(d.initializer)
    else if ((ts.isMethodSignature(d) || ts.isPropertySignature(d)) && ts.isInterfaceDeclaration(d.parent)) {
      const impls = implementers.get(d.parent.name.getText()) ?? []
      for (const cls of impls)
        for (const m of cls.members)
          if (m.name?.getText() === d.name.getText()) out.push(ts.isPropertyDeclaration(m) && m.initializer ? m.initializer : m)
    } else if (isFn(d)) out.push(d)
  }
  return out.filter(d => !ts.isMethodSignature(d) && !ts.isPropertySignature(d))
}

/** Functions handed to a call as arguments (an arrow, or an object literal's function members). */
function handedFunctions(call) {
  let n = 0
  for (const arg of call.arguments ?? []) {
    if (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) n++
    else if (ts.isObjectLiteralExpression(arg))
      n += arg.properties.filter(
        p =>
          ts.isMethodDeclaration(p) ||
          (ts.isPropertyAssignment(p) && (ts.isArrowFunction(p.initializer) || ts.isFunctionExpression(p.initializer)))
      ).length
  }
  return n
}

/** Per function, the callbacks it hands down: functions passed to a call of a lower floor, which calls them back up. */
const handedDown = new Map()

/** The calls a function body makes, not those of functions declared inside it (they are their own). */
function callsIn(fn) {
  const calls = []
  let handed = 0
  const floor = floorOf.get(unit(fn.getSourceFile().fileName))
  const visit = n => {
    if (n !== fn && (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n))) return
    if (ts.isCallExpression(n)) {
      const lower = targetsOf(n).some(t => floorOf.get(unit(t.getSourceFile().fileName)) < floor)
      if (lower) handed += handedFunctions(n)
    }
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      if (ts.isNewExpression(n)) {
        const sym = checker.getSymbolAtLocation(n.expression)
        const s = sym && sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym
        for (const d of s?.declarations ?? [])
          if (ts.isClassDeclaration(d)) for (const m of d.members) if (ts.isConstructorDeclaration(m)) calls.push(m)
      } else calls.push(...targetsOf(n))
    }
    ts.forEachChild(n, visit)
  }
  ts.forEachChild(fn, visit)
  handedDown.set(fn, handed)
  return calls
}

function findFunction(file, name) {
  const sf = program.getSourceFile(resolve(src, file))
  if (!sf) return null
  let found = null
  ts.forEachChild(sf, function visit(n) {
    if (!found && isFn(n) && nameOf(n).endsWith(`:${name}`)) found = n
    ts.forEachChild(n, visit)
  })
  return found
}

/** Stops and climbs from `start` to any of `targets` (file:name suffixes). */
function path(start, targets) {
  const reaches = new Map()
  const edges = new Map()
  const visit = fn => {
    if (reaches.has(fn)) return reaches.get(fn)
    reaches.set(fn, false)
    const name = nameOf(fn)
    let hit = targets.some(t => name.endsWith(t))
    const next = [...new Set(callsIn(fn))]
    edges.set(fn, next)
    if (!hit) for (const callee of next) if (visit(callee)) hit = true
    reaches.set(fn, hit)
    return hit
  }
  visit(start)
  const stops = [...reaches].filter(([, hit]) => hit).map(([fn]) => fn)
  const on = new Set(stops)
  let climbs = 0
  let callbacks = 0
  const visits = new Map()
  for (const fn of stops) {
    callbacks += handedDown.get(fn) ?? 0
    const f = rel(fn.getSourceFile().fileName)
    visits.set(f, (visits.get(f) ?? 0) + 1)
    for (const callee of edges.get(fn) ?? []) {
      if (!on.has(callee)) continue
      if (floorOf.get(unit(callee.getSourceFile().fileName)) > floorOf.get(unit(fn.getSourceFile().fileName))) climbs++
    }
  }
  return { stops: stops.length, climbs, callbacks, busiest: [...visits].sort((a, b) => b[1] - a[1]).slice(0, 3) }
}

/** Call sites of the named functions, by file. */
function callSites(names, except = () => false) {
  const by = new Map()
  for (const file of files) {
    const sf = program.getSourceFile(file)
    if (except(file)) continue
    ts.forEachChild(sf, function visit(n) {
      if (ts.isCallExpression(n)) {
        const callee = ts.isPropertyAccessExpression(n.expression) ? n.expression.name.getText() : n.expression.getText()
        if (names.includes(callee)) by.set(rel(file), (by.get(rel(file)) ?? 0) + 1)
      }
      ts.forEachChild(n, visit)
    })
  }
  return by
}

/** Calls of a Launcher method (the receiver's type is Launcher), by file. */
function launcherCalls(method, isStatic = false) {
  const by = new Map()
  for (const file of files) {
    ts.forEachChild(program.getSourceFile(file), function visit(n) {
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.getText() === method) {
        const recv = n.expression.expression
        const type = isStatic ? recv.getText() : checker.typeToString(checker.getNonNullableType(checker.getTypeAtLocation(recv)))
        if (type === 'Launcher') by.set(rel(file), (by.get(rel(file)) ?? 0) + 1)
      }
      ts.forEachChild(n, visit)
    })
  }
  return by
}

function literalSites(test, except) {
  const by = new Map()
  for (const file of files) {
    if (except(file)) continue
    ts.forEachChild(program.getSourceFile(file), function visit(n) {
      if (test(n)) by.set(rel(file), (by.get(rel(file)) ?? 0) + 1)
      ts.forEachChild(n, visit)
    })
  }
  return by
}

const total = by => [...by.values()].reduce((a, b) => a + b, 0)
const show = (label, by) => console.log(`${label}: ${total(by)} in ${by.size} files (${[...by.keys()].sort().join(', ')})`)

const runGate = findFunction('pipeline/run-gate.ts', 'runGate')
const quality = path(runGate, ['produceSideRuns'])
const load = path(runGate, ['runLoad'])
const both = path(runGate, ['produceSideRuns', 'runLoad'])
const fmt = p =>
  `${p.stops} stops, ${p.climbs} climbs, ${p.callbacks} callbacks handed down (most visited: ${p.busiest.map(([f, n]) => `${f} ${n}`).join(', ')})`
console.log(`runGate to a side's runs (produceSideRuns): ${fmt(quality)}`)
console.log(`runGate to the load half (runLoad): ${fmt(load)}`)
console.log(`runGate to either: ${fmt(both)}`)
show('bring a launched side up (Launcher#up)', launcherCalls('up'))
show('open a launcher (Launcher.open)', launcherCalls('open', true))
const schedule = literalSites(
  n => ts.isPropertyAccessExpression(n) && n.name.getText() === 'schedule' && /launch\??$/.test(n.expression.getText()),
  () => false
)
show('resolve the schedule (launch.schedule read)', schedule)
show(
  'API key lookups',
  callSites(['apiKeyOf', 'requiredApiKey', 'apiKeyValues', 'apiKeyNames'], f => f.endsWith(`secrets${sep}api-keys.ts`))
)
const endpoint = n =>
  ts.isObjectLiteralExpression(n) &&
  ['baseUrl', 'model'].every(k =>
    n.properties.some(p => (p.name?.getText?.() ?? '') === k || (ts.isShorthandPropertyAssignment(p) && p.name.getText() === k))
  )
show(
  'endpoint rebuilds ({ baseUrl, model } outside config/)',
  literalSites(endpoint, f => f.includes(`${sep}src${sep}config${sep}`))
)
show('fingerprint computed (gateFingerprint called)', callSites(['gateFingerprint']))

// The comparison's seam (docs/development.md "Harness output"): the object literals that make a
// comparison row (`ci`, `n_needed` and `max_drop`: the answer-length row has a ratio instead, the
// calibration row a `max_increase`), and what gate/compare.ts imports of one harness (a reader in
// helm/ or lmeval/, or one harness's own file).
const row = n =>
  ts.isObjectLiteralExpression(n) && ['ci', 'n_needed', 'max_drop'].every(k => n.properties.some(p => (p.name?.getText?.() ?? '') === k))
show(
  'comparison rows built ({ ci, n_needed, max_drop } literals)',
  literalSites(row, () => false)
)
const compareFile = program.getSourceFile(resolve(src, 'gate', 'compare.ts'))
const harnessImports = compareFile.statements
  .filter(s => ts.isImportDeclaration(s))
  .map(s => s.moduleSpecifier.text)
  .filter(m => /^\.\.\/(helm|lmeval)\/|^\.\/(lmeval|helm-[\w-]+)\.js$/.test(m))
console.log(`harness-specific imports of gate/compare.ts: ${harnessImports.length} (${harnessImports.join(', ')})`)

// The callbacks taken through the seam: a function-typed member of a parameter's interface is code
// the caller hands down for the callee to call back (runGate's settings, the holder's work).
function callbacksOf(fn) {
  const found = []
  const seen = new Set()
  const walk = (type, where) => {
    const decl = type.getSymbol()?.declarations?.[0]
    if (!decl || !decl.getSourceFile().fileName.startsWith(src)) return
    if (!(ts.isInterfaceDeclaration(decl) || ts.isTypeLiteralNode(decl)) || seen.has(decl)) return
    seen.add(decl)
    for (const prop of checker.getPropertiesOfType(type)) {
      const declared = prop.valueDeclaration ?? prop.declarations?.[0]
      if (!declared) continue
      const t = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(prop, declared))
      if (ts.isMethodSignature(declared) || t.getCallSignatures().length > 0) found.push(`${where}.${prop.getName()}`)
      else walk(t, `${where}.${prop.getName()}`)
    }
  }
  for (const param of fn.parameters) {
    walk(checker.getNonNullableType(checker.getTypeAtLocation(param)), param.name.getText())
  }
  return found
}
for (const [file, name] of [
  ['pipeline/run-gate.ts', 'runGate'],
  ['launch/side-holder.ts', 'holdOnSchedule']
]) {
  const fn = findFunction(file, name)
  if (!fn) console.log(`callbacks ${name} takes: no ${name} in ${file}`)
  else {
    const taken = callbacksOf(fn)
    console.log(`callbacks ${name} takes: ${taken.length} (${taken.join(', ')})`)
  }
}

const measurementClasses = (implementers.get('SideMeasurement') ?? []).map(c => `${rel(c.getSourceFile().fileName)}:${c.name?.getText()}`)
console.log(`measurements implementing SideMeasurement: ${measurementClasses.length} (${measurementClasses.sort().join(', ')})`)
const listed = findFunction('pipeline/measurements.ts', 'measurementsFor')
let entries = []
if (listed)
  ts.forEachChild(listed, function visit(n) {
    if (!entries.length && ts.isArrayLiteralExpression(n)) entries = n.elements.map(e => e.getText().split('(')[0])
    ts.forEachChild(n, visit)
  })
if (!listed) console.log('measurements listed in pipeline/measurements.ts: no measurementsFor there')
else console.log(`measurements listed in pipeline/measurements.ts: ${entries.length} (${entries.join(', ')})`)

// A measurement's slice (docs/development.md "Adding a measurement"): the files outside its own
// folders whose code names it (an identifier or a string literal, comments not counted). The
// target is the two lists: pipeline/measurements.ts (its run) and pipeline/measurement-definitions.ts
// (its definition), apart so that `compare` loads no measurement's running code.
const SLICES = [
  { name: 'quality', home: ['runner/'], names: /^quality$|Quality[A-Z_]|^quality[A-Z_]/ },
  { name: 'fidelity', home: ['fidelity/'], names: /fidelity/i },
  { name: 'traffic', home: ['replay/', 'traffic/'], names: /traffic/i },
  {
    name: 'load',
    home: ['load/', 'launch/load-', 'launch/launched-load'],
    names: /^load$|^Load[A-Z]|^load[A-Z_](?!ateConfig)|^performance$/
  }
]
for (const slice of SLICES) {
  const by = new Map()
  for (const file of files) {
    const at = relative(src, file).split(sep).join('/')
    if (slice.home.some(h => at.startsWith(h))) continue
    ts.forEachChild(program.getSourceFile(file), function visit(n) {
      const named =
        (ts.isIdentifier(n) && slice.names.test(n.text)) ||
        ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && new RegExp(`\\b${slice.name}\\b`, 'i').test(n.text))
      if (named) by.set(rel(file), (by.get(rel(file)) ?? 0) + 1)
      ts.forEachChild(n, visit)
    })
  }
  show(`files outside its folder naming ${slice.name}`, by)
}
