// ESM TypeScript under jest: ts-jest transforms, ts-jest-resolver maps the `.js` import suffixes
// that NodeNext requires back to the `.ts` sources.
export default {
  preset: 'ts-jest/presets/default-esm',
  extensionsToTreatAsEsm: ['.ts'],
  resolver: 'ts-jest-resolver',
  testEnvironment: 'node',
  testMatch: ['**/__tests__/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json' }]
  },
  clearMocks: true,
  testTimeout: 30000
}
