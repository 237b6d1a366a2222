import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { version } from '../../version.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import type { Shell } from './shells.js';
import { describeProgram } from './tree.js';
import { zshScript } from './zsh.js';

/** Builds the script from the program as it is now, so it never drifts from the commands. */
export function completionScript(program: CommandUnknownOpts, shell: Shell): string {
  const tree = describeProgram(program);
  const v = version();
  switch (shell) {
    case 'bash':
      return bashScript(tree, v);
    case 'zsh':
      return zshScript(tree, v);
    case 'fish':
      return fishScript(tree, v);
  }
}

export default async function completion(ctx: Context, shell: Shell, program: CommandUnknownOpts): Promise<void> {
  ctx.io.stdout.write(completionScript(program, shell));
}
