import type { Context } from '../../context.js';
import { SilentExit } from '../../errors.js';
import { reportCheck } from '../../quality/report.js';
import { loadSuite, runSuite } from '../../quality/suite.js';
import type { TestFlags } from './definition.js';

export default async function test(ctx: Context, file: string, flags: TestFlags): Promise<void> {
  const suite = await loadSuite(file);
  const result = await runSuite(ctx, suite);
  await reportCheck(ctx, result, { format: flags.format as 'md' | undefined, junit: flags.junit, title: `test ${suite.name}` });
  if (result.errorFailures > 0) throw new SilentExit(1);
}
