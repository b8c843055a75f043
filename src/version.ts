/** Kept equal to package.json's version (a test checks it). */
export const HELM_GATE_VERSION = '0.1.0'
