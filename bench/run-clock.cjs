// voicectl in a process of its own on the sandbox's simulated clock (anchors in the
// environment), for bench/campaign-run.js: the tests' runner (test/campaigns/run/child.cjs),
// which this counts around. On exit it reports, on fd 3, its peak memory and how many times
// it replaced a file by rename (the journal's atomic writes).
'use strict';
const fsp = require('node:fs/promises');
const { writeSync } = require('node:fs');

let renames = 0;
const rename = fsp.rename;
fsp.rename = (...args) => {
  renames++;
  return rename(...args);
};

process.on('exit', () => {
  try {
    writeSync(3, `${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, renames })}\n`);
  } catch {
    // no fd 3: run by hand
  }
});
require('../test/campaigns/run/child.cjs');
