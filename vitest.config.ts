import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The JSON report is what .ci/run counts; the default reporter is what people read;
    // the last lines name the programs from outside npm that some tests needed and lacked.
    reporters: ['default', 'json', './test/helpers/missing-programs.ts'],
    outputFile: { json: '.vitest-report.json' },
  },
});
