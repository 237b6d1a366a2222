// Writes dist/help.cjs.cache, V8's code cache for the help bundle, after showing the
// help of voicectl and of every group so that what help runs is compiled into it.
// Run by scripts/build.js with stdout discarded.
'use strict';
const { writeFileSync } = require('node:fs');
const { loadHelp, HELP_CACHE } = require('../dist/start.cjs');

(async () => {
  const { exports: helpBundle, script } = loadHelp();
  await helpBundle.help(['--help']);
  for (const name of helpBundle.GROUP_NAMES) await helpBundle.help([name, '--help']);
  writeFileSync(HELP_CACHE, script.createCachedData());
})().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
