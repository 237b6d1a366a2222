/** `voicectl completion`, declared once (src/commands/spec.ts). @internal */
import { Argument } from '@commander-js/extra-typings';
import { verb } from '../spec.js';
import { SHELLS } from './shells.js';

/** @internal */
export const completion = verb({
  name: 'completion', summary: 'Print a shell completion script for bash, zsh or fish',
  arguments: [new Argument('<shell>', 'the shell to complete for').choices(SHELLS)],
  help: [`Install (then open a new shell):
  bash  mkdir -p ~/.local/share/bash-completion/completions
        voicectl completion bash > ~/.local/share/bash-completion/completions/voicectl
        (or add  eval "$(voicectl completion bash)"  to ~/.bashrc)
  zsh   mkdir -p ~/.zsh/completions
        voicectl completion zsh > ~/.zsh/completions/_voicectl
        and in ~/.zshrc, before compinit:  fpath=(~/.zsh/completions $fpath)
  fish  mkdir -p ~/.config/fish/completions
        voicectl completion fish > ~/.config/fish/completions/voicectl.fish`],
  examples: [{ command: 'eval "$(voicectl completion bash)"', comment: 'this bash session only' }, { command: 'mkdir -p ~/.zsh/completions && voicectl completion zsh > ~/.zsh/completions/_voicectl' }],
  // The script is made from the whole program, so it never drifts from the commands.
  run: async (ctx, build, shell) => (await import('./print.js')).default(ctx, shell, build(ctx)),
});
