// A sandbox in its own process for bench/campaign-run.js, at a set simulated start and
// time scale. Prints {url, apiKey, simStart, realStart, scale} once ready: the run's
// process reads the same simulated clock from these.
import { startSandbox } from '../dist/sandbox/index.js';

const [timeScale, startAt] = process.argv.slice(2);
const sb = await startSandbox({ port: 0, timeScale: Number(timeScale), seed: 11, startAt });
const clock = sb.world.clock.anchors();
process.on('message', async (m) => {
  if (m === 'calls') {
    const org = sb.world.org(sb.world.keys.get(sb.apiKey).org);
    process.send({ calls: Object.keys(org.calls).length });
  }
  if (m === 'close') {
    await sb.close();
    process.exit(0);
  }
});
process.send({ url: sb.url, apiKey: sb.apiKey, simStart: clock.simStart, realStart: clock.realStart, scale: clock.scale });
