import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { group } from '../shared.js';
import type { Context } from '../../context.js';
import { SHELLS, type Shell } from './shells.js';

export { SHELLS, type Shell };

/**
 * `fullProgram` builds every command (program.ts passes it): the script is made from the
 * program itself, so it never drifts, and this group need not import program.ts back.
 */
export function completionCommand(ctx: Context, fullProgram: () => CommandUnknownOpts): CommandUnknownOpts {
  return group('completion')
    .description('Print a shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete for').choices(SHELLS))
    .addHelpText('after', `
Install (then open a new shell):
  bash  mkdir -p ~/.local/share/bash-completion/completions
        voicectl completion bash > ~/.local/share/bash-completion/completions/voicectl
        (or add  eval "$(voicectl completion bash)"  to ~/.bashrc)
  zsh   mkdir -p ~/.zsh/completions
        voicectl completion zsh > ~/.zsh/completions/_voicectl
        and in ~/.zshrc, before compinit:  fpath=(~/.zsh/completions $fpath)
  fish  mkdir -p ~/.config/fish/completions
        voicectl completion fish > ~/.config/fish/completions/voicectl.fish
`)
    .addHelpText('after', `\nExamples:\n  eval "$(voicectl completion bash)"                 # this bash session only\n  mkdir -p ~/.zsh/completions && voicectl completion zsh > ~/.zsh/completions/_voicectl`)
    .action(async (shell: Shell) => (await import('./print.js')).default(ctx, shell, fullProgram()));
}
