// typescript-eslint's recommended rules over the sources, tests, test support and benchmarks.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'src/report/html-client.bundle.ts',
      'node_modules/',
      '.venv/',
      '.venv-helm-0.2/',
      '.venv-lm-eval/',
      '.tmp/',
      'coverage/',
      'demo-output/',
      '__tests__/fixtures/',
      'scripts/fixtures/'
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        setImmediate: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        AbortSignal: 'readonly'
      }
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Escaping untrusted model output must match control characters on purpose.
      'no-control-regex': 'off'
    }
  },
  // Wichura's AS241 coefficients are published with more digits than a double holds; they are kept verbatim.
  { files: ['src/stats/normal.ts'], rules: { 'no-loss-of-precision': 'off' } },
  // The fakes walk arbitrary JSON (request bodies, OpenAPI schemas).
  { files: ['test-support/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } }
)
