/**
 * The function each CommonJS file of the start path (dist/help.cjs, dist/main.cjs and the
 * package files) is written inside by the build, as Node's own loader would wrap it: V8
 * compiles the file's text as it is read, without another copy of 1.9 MB made at every start
 * to put a function around it (about 6 ms and 460 fresh pages here). src/code-cache.ts calls
 * it with these arguments, in this order.
 */
export const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname, __voicectlImport) {';
export const WRAPPER_TAIL = '\n})';
