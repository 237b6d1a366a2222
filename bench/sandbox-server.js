// A sandbox in its own process for bench/sandbox.js, so its memory is measured alone.
// argv: timeScale seedCount [blank-callback-summaries]. Prints {url, apiKey} once ready; answers 'rss' over IPC.
import { seedCalls, startSandbox } from '../dist/sandbox/index.js';

const [timeScale, seedCount] = process.argv.slice(2).map(Number);
const sb = await startSandbox({ port: 0, timeScale, seed: 11 });
if (seedCount > 0) seedCalls(sb.world, sb.world.keys.get(sb.apiKey).org, seedCount);
// A service whose callback summaries say nothing: every callback's time must be read from its transcript.
if (process.argv[4] === 'blank-callback-summaries') {
  const org = sb.world.org(sb.world.keys.get(sb.apiKey).org);
  for (const c of Object.values(org.calls)) if (c.outcome === 'callback_scheduled') c.summary = '';
}
globalThis.gc?.();
process.on('message', async (m) => {
  if (m === 'rss') process.send({ rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed });
  if (m === 'close') {
    await sb.close();
    process.exit(0);
  }
});
process.send({ url: sb.url, apiKey: sb.apiKey });
