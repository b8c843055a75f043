// Two bundles: the action (dist/index.js) and the command line (dist/cli.js). The CLI must run with
// plain `node dist/cli.js` and no node_modules, and must stay small: it never imports the
// artifact/Azure code, which only the action entry point reaches.
import commonjs from '@rollup/plugin-commonjs'
import json from '@rollup/plugin-json'
import { nodeResolve } from '@rollup/plugin-node-resolve'
import typescript from '@rollup/plugin-typescript'

const plugins = () => [
  typescript({ tsconfig: './tsconfig.json', outDir: 'dist', noEmitOnError: true }),
  nodeResolve({ preferBuiltins: true }),
  // undici requires node:sqlite lazily, only for a cache store helm-gate never uses; Node 20
  // has no such module, so the require must stay lazy instead of becoming a static import.
  commonjs({ ignore: ['node:sqlite'] }),
  // @actions/artifact requires its own package.json at load time.
  json()
]

// A circle among helm-gate's own modules fails the build (scripts/check-import-cycles.mjs, run by
// `npm run lint`, also finds the type-only ones the bundle never sees); dependencies keep theirs.
const quiet = (warning, warn) => {
  if (warning.code === 'CIRCULAR_DEPENDENCY') {
    if ((warning.ids ?? []).every(id => !id.includes('node_modules'))) throw new Error(`import circle in src/: ${warning.message}`)
    return
  }
  if (warning.code === 'THIS_IS_UNDEFINED') return
  warn(warning)
}

export default [
  {
    input: 'src/action-entry.ts',
    output: { file: 'dist/index.js', format: 'es', inlineDynamicImports: true },
    plugins: plugins(),
    onwarn: quiet
  },
  {
    input: 'src/cli-entry.ts',
    // Split at the CLI's dynamic imports, so that `compare` loads only what it runs (cli/main.ts).
    output: {
      dir: 'dist',
      entryFileNames: 'cli.js',
      chunkFileNames: 'cli-[name].js',
      format: 'es',
      banner: chunk => (chunk.isEntry ? '#!/usr/bin/env node' : '')
    },
    plugins: plugins(),
    onwarn: quiet
  },
  {
    // The efficiency worker thread both bundles start (src/stats/off-thread.ts looks for it beside itself).
    input: 'src/stats/ratio-worker.ts',
    output: { file: 'dist/ratio-worker.js', format: 'es' },
    plugins: plugins(),
    onwarn: quiet
  }
]
