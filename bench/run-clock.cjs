// voicectl in a process of its own on the sandbox's simulated clock (anchors in the
// environment), for bench/campaign-run.js. On exit it reports, on fd 3, its peak memory and
// how many times it replaced a file by rename (the journal's atomic writes).
'use strict';
const fsp = require('node:fs/promises');
const { writeSync } = require('node:fs');

let renames = 0;
const rename = fsp.rename;
fsp.rename = (...args) => {
  renames++;
  return rename(...args);
};

const start = require('../dist/start.cjs');
const { main } = start.load(start.MAIN_FILE).exports;
const simStart = Number(process.env.SIM_START);
const realStart = Number(process.env.SIM_REAL_START);
const scale = Number(process.env.SIM_SCALE);
const now = () => new Date(Math.floor(simStart + (Date.now() - realStart) * scale));
const sleep = (ms, signal) => new Promise((resolve, reject) => {
  if (signal && signal.aborted) return reject(signal.reason);
  const onAbort = () => {
    clearTimeout(t);
    reject(signal.reason);
  };
  const t = setTimeout(() => {
    if (signal) signal.removeEventListener('abort', onAbort);
    resolve();
  }, Math.max(1, ms / scale));
  if (signal) signal.addEventListener('abort', onAbort, { once: true });
});

process.on('exit', () => {
  try {
    writeSync(3, `${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, renames })}\n`);
  } catch {
    // no fd 3: run by hand
  }
});
main(process.argv.slice(2), { now, sleep }).then((code) => {
  process.exitCode = code;
});
