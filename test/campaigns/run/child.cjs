// The built voicectl in a process of its own, on the sandbox's simulated clock: the test
// passes the sandbox clock's anchors (its simulated and real start, its scale), so this
// process reads exactly the time the sandbox does, and sleeps are shortened by the scale.
'use strict';
// Loaded as bin/voicectl.js loads it (through the code cache, which supplies its dynamic imports).
const start = require('../../../dist/start.cjs');
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

main(process.argv.slice(2), { now, sleep }).then((code) => {
  process.exitCode = code;
});
