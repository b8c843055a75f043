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

const quiet = (warning, warn) => {
  if (warning.code === 'CIRCULAR_DEPENDENCY' || warning.code === 'THIS_IS_UNDEFINED') return
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
    output: {
      file: 'dist/cli.js',
      format: 'es',
      banner: '#!/usr/bin/env node',
      inlineDynamicImports: true
    },
    plugins: plugins(),
    onwarn: quiet
  }
]
