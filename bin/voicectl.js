#!/usr/bin/env node
import { main } from '../dist/main.js';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // Safety net: a stray handle must never keep a finished command alive.
  setTimeout(() => process.exit(code), 3000).unref();
});
