// ../../../tmp/eng.ts
import { readFileSync as readFileSync2 } from "node:fs";

// src/io/jq-engine.ts
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { compileFunction } from "node:vm";
var EDITS = [
  // The environment jq sees: the given one in place of Emscripten's made-up USER=web_user, HOME=/home/web_user.
  ["var ENV = {};", 'var ENV = Module["voicectlEnv"] || {};'],
  // The file system, to replace the byte-at-a-time standard streams.
  ["FS.staticInit();", 'FS.staticInit();Module["FS"]=FS;']
];
var EMSCRIPTEN_ENV = ["USER", "LOGNAME", "PATH", "PWD", "HOME", "LANG", "_"];
var WebAssemblyApi = globalThis.WebAssembly;
var loaded;
function loadJq() {
  if (loaded) return loaded;
  const require2 = createRequire(import.meta.url);
  const file = require2.resolve("jq-wasm/dist/build/jq.js");
  let code = readFileSync(file, "latin1");
  for (const [from, to] of EDITS) {
    const count = code.split(from).length - 1;
    if (count !== 1) throw new Error(`${file}: expected one "${from}", found ${count}; jq-wasm changed, review src/io/jq-engine.ts`);
    code = code.replace(from, to);
  }
  const binary = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(code);
  if (!binary) throw new Error(`${file}: no WebAssembly found; jq-wasm changed, review src/io/jq-engine.ts`);
  const wasm = new WebAssemblyApi.Module(Buffer.from(binary[1], "base64"));
  code = code.replace(binary[0], '""');
  const module = { exports: {} };
  const fn = compileFunction(code, ["module", "exports", "require", "__filename", "__dirname"], { filename: file });
  fn(module, module.exports, require2, file, file.replace(/\/[^/]*$/, ""));
  loaded = { factory: module.exports, wasm };
  return loaded;
}
function wasmEnv(env) {
  const out = {};
  for (const name of EMSCRIPTEN_ENV) out[name] = void 0;
  for (const [k, v] of Object.entries(env)) {
    if (v === void 0 || /[^\x20-\x7e]/.test(k) || k.includes("=")) continue;
    out[k] = Buffer.from(v, "utf8").toString("latin1").replaceAll("\0", "");
  }
  return out;
}
async function runJq(run) {
  const { factory, wasm } = loadJq();
  const jq = await factory({
    voicectlEnv: wasmEnv(run.env),
    instantiateWasm(imports, receive) {
      const instance = new WebAssemblyApi.Instance(wasm, imports);
      receive(instance, wasm);
      return instance.exports;
    }
  });
  const streams = [0, 1, 2].map((fd) => jq.FS.getStream(fd));
  if (streams.some((s) => s === void 0)) throw new Error("jq-wasm has no standard streams");
  const [stdin, stdout, stderr] = streams;
  let offset = 0;
  const input2 = run.input;
  const view = (buffer, at, length) => new Uint8Array(buffer.buffer, buffer.byteOffset + at, length);
  stdin.stream_ops = {
    ...stdin.stream_ops,
    read: (_s, buffer, at, length) => {
      const n2 = Math.min(length, input2.length - offset);
      view(buffer, at, n2).set(input2.subarray(offset, offset + n2));
      offset += n2;
      return n2;
    }
  };
  const writer = (sink) => (_s, buffer, at, length) => {
    sink(view(buffer, at, length).slice());
    return length;
  };
  stdout.stream_ops = { ...stdout.stream_ops, write: writer(run.stdout) };
  let tail = "";
  stderr.stream_ops = {
    ...stderr.stream_ops,
    write: writer((chunk) => {
      tail = (tail + Buffer.from(chunk).toString("utf8")).slice(-200);
      run.stderr(chunk);
    })
  };
  const exitCode = process.exitCode;
  const consoleError = console.error;
  console.error = () => {
  };
  try {
    return { status: jq.callMain(["-r", "-M", run.program]) };
  } catch (err) {
    if (tail.includes("cannot allocate memory") || err instanceof RangeError) return { status: 1, outOfMemory: true };
    throw err;
  } finally {
    console.error = consoleError;
    process.exitCode = exitCode;
  }
}

// ../../../tmp/eng.ts
var input = readFileSync2(process.argv[2]);
var t = performance.now();
loadJq();
var tl = performance.now() - t;
t = performance.now();
var c = process.cpuUsage();
var n = 0;
await runJq({ program: ".[].call_id", input, env: {}, stdout: (x) => {
  n += x.length;
}, stderr: () => {
} });
var u = process.cpuUsage(c);
console.log("load", Math.round(tl), "run", Math.round(performance.now() - t), "cpu", Math.round((u.user + u.system) / 1e3), "bytes", n);
